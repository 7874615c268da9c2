package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharedFetchesTest {
  @Test
  void waitersGoOnInOrderWhenTheFetchEnds() {
    SharedFetches s = new SharedFetches();
    List<String> ran = new ArrayList<>();
    s.begin("f");
    assertThat(s.inProgress("f")).isTrue();
    s.await("f", () -> ran.add("first"));
    s.await("f", () -> ran.add("second"));
    assertThat(ran).isEmpty();

    s.end("f");
    assertThat(ran).containsExactly("first", "second");
    assertThat(s.inProgress("f")).isFalse();
    s.end("f");
    assertThat(ran).hasSize(2);
  }

  @Test
  void aWaiterMayStartTheNextFetchOfTheSameFile() {
    SharedFetches s = new SharedFetches();
    List<String> ran = new ArrayList<>();
    s.begin("f");
    s.await("f", () -> {
      s.begin("f");
      ran.add("refetching");
    });
    s.end("f");
    assertThat(ran).containsExactly("refetching");
    assertThat(s.inProgress("f")).isTrue();
  }

  @Test
  void nothingToWaitForIsABugAndClearForgetsWaiters() {
    SharedFetches s = new SharedFetches();
    assertThatThrownBy(() -> s.await("f", () -> { })).isInstanceOf(IllegalStateException.class);
    List<String> ran = new ArrayList<>();
    s.begin("f");
    s.await("f", () -> ran.add("x"));
    s.clear();
    s.end("f");
    assertThat(ran).isEmpty();
  }
}
