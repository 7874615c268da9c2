package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.limits.Limits;
import org.junit.jupiter.api.Test;

class AgentConfigTest {
  @Test
  void anEvictionPolicyAnAgentCannotRunFailsWhenTheConfigIsMadeNotWhenTheAgentIs() {
    assertThat(AgentConfig.EVICTION_POLICIES).containsExactly("LRU", "FIFO", "LFU", "RANDOM");
    assertThat(AgentConfig.builder("p", "n").evictionPolicy("random").build().evictionPolicy())
        .isEqualTo("random");
    assertThatThrownBy(() -> AgentConfig.builder("p", "n").evictionPolicy("BOGUS").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("evictionPolicy: 'BOGUS' is not an eviction policy");
    assertThatThrownBy(() -> AgentConfig.builder("p", "n").evictionPolicy("VALUE").build())
        .hasMessageContaining("needs the pool's statistics");
  }

  /** Issue 22: an agent the scheduler would refuse (its Limits) refuses to start instead. */
  @Test
  void namesSlotsAndCacheFollowTheSchedulersLimits() {
    String longest = "n".repeat(Limits.MAX_ID_CHARS);
    assertThat(AgentConfig.builder("p", longest).build().nodeId()).isEqualTo(longest);
    assertThatThrownBy(() -> AgentConfig.builder("p", longest + "n").build())
        .hasMessage("nodeId has 257 characters, more than the limit of 256");
    assertThatThrownBy(() -> AgentConfig.builder("p\u0007", "n").build())
        .hasMessage("pool contains a control character at index 1");
    assertThatThrownBy(() -> AgentConfig.builder("p", "n").slots(Limits.MAX_SLOTS + 1).build())
        .hasMessage("slots must be 1..4096, got 4097");
    assertThatThrownBy(() -> AgentConfig.builder("p", "n")
        .cacheCapacityBytes(Limits.MAX_BYTE_COUNT + 1).build())
        .hasMessageStartingWith("cacheCapacityBytes must be 0.." + Limits.MAX_BYTE_COUNT);
  }
}
