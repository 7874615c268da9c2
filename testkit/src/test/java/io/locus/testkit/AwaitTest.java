package io.locus.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
  @Test
  void returnsOnceTheConditionHoldsAndNoEarlier() {
    AtomicInteger checks = new AtomicInteger();
    Await.atMost(Duration.ofSeconds(10)).pollEvery(Duration.ZERO)
        .until("the third check", () -> checks.incrementAndGet() == 3);
    assertThat(checks).hasValue(3);
  }

  @Test
  void returnsTheValueThatSatisfiedIt() {
    AtomicInteger n = new AtomicInteger();
    int got = Await.atMost(Duration.ofSeconds(10)).pollEvery(Duration.ZERO)
        .until("five", n::incrementAndGet, v -> v >= 5);
    assertThat(got).isEqualTo(5);
    AtomicInteger m = new AtomicInteger();
    String s = Await.atMost(Duration.ofSeconds(10)).pollEvery(Duration.ofMillis(1))
        .untilPresent("a value", () -> m.incrementAndGet() < 3 ? Optional.empty()
            : Optional.of("v" + m.get()));
    assertThat(s).isEqualTo("v3");
  }

  @Test
  void failsAtTheDeadlineWithTheMessageAndTheLastValue() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Await.until("never", Duration.ofMillis(200), () -> false))
        .isInstanceOf(AssertionError.class).hasMessage("not within PT0.2S: never");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(
        Duration.ofMillis(200));
    assertThatThrownBy(() -> Await.atMost(Duration.ofMillis(50)).until("above 10", () -> 7,
        v -> v > 10)).hasMessage("not within PT0.05S: above 10 (last seen: 7)");
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> Await.atMost(Duration.ofMillis(50)).until(
        () -> "state " + calls.get(), () -> calls.incrementAndGet() < 0))
        .hasMessageStartingWith("not within PT0.05S: state ");
  }

  @Test
  void aConditionThatThrowsFailsTheWaitAtOnceWithItsException() {
    assertThatThrownBy(() -> Await.until("boom", Duration.ofSeconds(30), () -> {
      throw new IllegalStateException("broken");
    })).isInstanceOf(IllegalStateException.class).hasMessage("broken");
    assertThatThrownBy(() -> Await.until("io", Duration.ofSeconds(30), () -> {
      throw new IOException("refused");
    })).isInstanceOf(IOException.class).hasMessage("refused");
  }

  @Test
  void anIgnoredExceptionMeansNotYetAndIsNamedAtTheDeadline() throws Exception {
    AtomicInteger n = new AtomicInteger();
    String body = Await.atMost(Duration.ofSeconds(10)).pollEvery(Duration.ZERO)
        .ignoring(IOException.class).until("an answer", () -> {
          if (n.incrementAndGet() < 3) {
            throw new IOException("not listening yet");
          }
          return "ok";
        }, "ok"::equals);
    assertThat(body).isEqualTo("ok");
    assertThatThrownBy(() -> Await.atMost(Duration.ofMillis(50)).ignoring(IOException.class)
        .until("an answer", () -> {
          throw new IOException("refused");
        })).isInstanceOf(AssertionError.class)
        .hasMessage("not within PT0.05S: an answer (last: java.io.IOException: refused)")
        .hasCauseInstanceOf(IOException.class);
  }
}
