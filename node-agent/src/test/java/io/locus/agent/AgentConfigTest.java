package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
