package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import org.junit.jupiter.api.Test;

class CacheDeltaTest {
  @Test
  void keepsTheNetChange() {
    CacheDelta d = new CacheDelta();
    d.add("a", 10);
    d.remove("a");
    assertThat(d.isEmpty()).as("added then removed before a report: nothing to say").isTrue();

    d.remove("b");
    d.add("b", 20);
    assertThat(d.added()).containsExactly(new CachedFile("b", 20L));
    assertThat(d.removed()).isEmpty();

    d.remove("c");
    assertThat(d.removed()).containsExactly("c");
    d.forgetRemoval("c");
    assertThat(d.removed()).isEmpty();

    d.clear();
    assertThat(d.isEmpty()).isTrue();
  }
}
