package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The outage lines on a clock the test moves: one WARN, one INFO, nothing for an idle producer. */
class BrokerWatchTest {
  private final AtomicLong clock = new AtomicLong();
  private final BrokerWatch watch = new BrokerWatch("agents of pool p", "k:9092",
      Duration.ofSeconds(5), clock::get);

  private void advance(Duration d) {
    clock.addAndGet(d.toNanos());
  }

  @Test
  void anOutageIsOneWarnAndOneInfoWithItsLength() {
    List<String> lines = new CopyOnWriteArrayList<>();
    try (LogCapture c = LogCapture.of(LoggerFactory.getLogger(BrokerWatch.class), lines)) {
      watch.sent();
      watch.acked();
      advance(Duration.ofSeconds(2));
      watch.sent(); // unanswered from here on
      advance(Duration.ofSeconds(4));
      watch.check();
      assertThat(lines).as("4 s unanswered is not yet an outage").isEmpty();
      for (int i = 0; i < 10; i++) {
        advance(Duration.ofSeconds(1));
        watch.sent();
        watch.check();
      }
      assertThat(watch.failed()).as("a failure during a logged outage is not logged again")
          .isFalse();
      assertThat(lines).hasSize(1);
      assertThat(lines.get(0)).startsWith("WARN agents of pool p: the broker at k:9092 has"
          + " answered no send for 6 s");
      assertThat(watch.out()).isTrue();
      advance(Duration.ofSeconds(4));
      watch.acked();
      watch.acked();
      assertThat(lines).hasSize(2);
      assertThat(lines.get(1)).startsWith("INFO agents of pool p: the broker at k:9092 answers"
          + " again after 18 s out; 1 send(s) failed meanwhile");
      assertThat(watch.out()).isFalse();
      assertThat(watch.outages()).isEqualTo(1);
    }
  }

  @Test
  void anIdleProducerIsNoOutage() {
    List<String> lines = new CopyOnWriteArrayList<>();
    try (LogCapture c = LogCapture.of(LoggerFactory.getLogger(BrokerWatch.class), lines)) {
      watch.sent();
      watch.acked();
      advance(Duration.ofMinutes(5));
      watch.check();
      watch.sent();
      advance(Duration.ofSeconds(1));
      watch.check();
      assertThat(lines).isEmpty();
      assertThat(watch.failed()).as("a failure outside an outage is logged by the caller")
          .isTrue();
    }
  }
}
