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

  @Test
  void aFreshOrClearedDeltaTakesEveryOperation() {
    // Its sets are made on first use: every operation must work before that and after a clear.
    CacheDelta d = new CacheDelta();
    d.forgetRemoval("x");
    d.remove("x");
    assertThat(d.removed()).containsExactly("x");
    d.clear();
    d.forgetRemoval("x");
    d.add("y", 5);
    d.clear();
    d.remove("y");
    d.add("y", 6);
    assertThat(d.added()).containsExactly(new CachedFile("y", 6L));
    assertThat(d.removed()).isEmpty();
  }
}
