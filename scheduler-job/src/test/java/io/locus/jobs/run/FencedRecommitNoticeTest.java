package io.locus.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.jobs.RestorePoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 22: a restored exactly-once run used to log Flink's "producer is already fenced … most
 * likely signals data loss" ERROR for the harmless re-commit of a transaction the killed run had
 * committed. The notice turns it into one INFO line while the restored checkpoint is younger
 * than the transaction timeout, and leaves Flink's ERROR where data may really be lost.
 */
class FencedRecommitNoticeTest {
  /** Flink's message (flink-connector-kafka 5.0.0-2.2, KafkaCommitter#logFencedRequest). */
  private static final String FLINK = "Unable to commit transaction ({}) because its producer is "
      + "already fenced. This means that you either have a different producer with the same "
      + "'{}' (this is unlikely with the '{}' as all generated ids are unique and shouldn't be "
      + "reused) or recovery took longer than '{}' ({}ms). In both cases this most likely signals "
      + "data loss, please consult the Flink documentation for more details.";
  private static final String REQUEST = "CommitRequestImpl{committable=KafkaCommittable{"
      + "producerId=4, epoch=0, transactionalId='locus-decisions-0-15'}, numRetries=0}";

  @TempDir Path state;

  private final List<LogEvent> seen = new CopyOnWriteArrayList<>();
  private AbstractAppender capture;
  private Instant now = Instant.parse("2026-11-28T06:00:00Z");
  private final Clock clock = new Clock() {
    @Override public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override public Instant instant() {
      return now;
    }
  };

  @BeforeEach
  void captureLog() {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    capture = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        seen.add(event.toImmutable());
      }
    };
    capture.start();
    ctx.getConfiguration().getRootLogger().addAppender(capture, Level.ALL, null);
    Configurator.setLevel(FencedRecommitNotice.class.getName(), Level.INFO);
    ctx.updateLoggers();
  }

  @AfterEach
  void release() {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    ctx.getConfiguration().getRootLogger().removeAppender("capture");
    ctx.updateLoggers();
  }

  private RestorePoint checkpointWritten(Instant at) throws Exception {
    Path chk = state.resolve("checkpoints/0123456789abcdef0123456789abcdef/chk-7");
    Files.createDirectories(chk);
    Path meta = chk.resolve("_metadata");
    Files.writeString(meta, "x");
    Files.setLastModifiedTime(meta, FileTime.from(at));
    return RestorePoint.latest(state.resolve("checkpoints"), state.resolve("savepoints"));
  }

  private void flinkLogsFenced() {
    LoggerFactory.getLogger(FencedRecommitNotice.COMMITTER).error(FLINK, REQUEST,
        "transactional.id", "KafkaSink", "transaction.timeout.ms", "900000",
        new RuntimeException("Producer attempted an operation with an old epoch"));
  }

  private List<LogEvent> from(String logger) {
    return seen.stream().filter(e -> e.getLoggerName().equals(logger)).toList();
  }

  private void withNotice(RestorePoint from, Runnable body) {
    FencedRecommitNotice notice = new FencedRecommitNotice(from, state.resolve("checkpoints"),
        state.resolve("savepoints"), Duration.ofMinutes(15), clock);
    assertThat(FencedRecommitNotice.install(notice)).isTrue();
    try {
      body.run();
    } finally {
      FencedRecommitNotice.uninstall(notice);
    }
  }

  @Test
  void aRecentRestoresRecommitIsOneInfoLineNamingTheTransaction() throws Exception {
    RestorePoint from = checkpointWritten(now.minusSeconds(12));
    withNotice(from, this::flinkLogsFenced);
    assertThat(from(FencedRecommitNotice.COMMITTER)).isEmpty();
    List<LogEvent> info = from(FencedRecommitNotice.class.getName());
    assertThat(info).singleElement().satisfies(e -> {
      assertThat(e.getLevel()).isEqualTo(Level.INFO);
      assertThat(e.getMessage().getFormattedMessage())
          .contains("transaction locus-decisions-0-15 was already committed")
          .contains("12 s old, under the 900 s transaction timeout")
          .doesNotContain("data loss");
    });
  }

  @Test
  void aRestoreOlderThanTheTransactionTimeoutKeepsFlinksError() throws Exception {
    RestorePoint from = checkpointWritten(now.minus(Duration.ofMinutes(16)));
    withNotice(from, this::flinkLogsFenced);
    assertThat(from(FencedRecommitNotice.COMMITTER)).singleElement()
        .satisfies(e -> assertThat(e.getLevel()).isEqualTo(Level.ERROR));
    assertThat(from(FencedRecommitNotice.class.getName())).isEmpty();
  }

  @Test
  void aFailoverWithinTheRunJudgesTheCheckpointItRestores() throws Exception {
    // Started fresh; 20 minutes later a TaskManager fails and the job restores the checkpoint it
    // completed 3 s before: that one's age counts, not the run's.
    RestorePoint fresh = RestorePoint.fresh("--fresh");
    FencedRecommitNotice notice = new FencedRecommitNotice(fresh, state.resolve("checkpoints"),
        state.resolve("savepoints"), Duration.ofMinutes(15), clock);
    FencedRecommitNotice.install(notice);
    try {
      now = now.plus(Duration.ofMinutes(20));
      checkpointWritten(now.minusSeconds(3));
      flinkLogsFenced();
    } finally {
      FencedRecommitNotice.uninstall(notice);
    }
    assertThat(from(FencedRecommitNotice.COMMITTER)).isEmpty();
    assertThat(from(FencedRecommitNotice.class.getName())).hasSize(1);
  }

  @Test
  void aFreshRunWithNoCheckpointAndOtherCommitterErrorsAreLeftAlone() throws Exception {
    withNotice(RestorePoint.fresh("--fresh"), () -> {
      flinkLogsFenced();
      LoggerFactory.getLogger(FencedRecommitNotice.COMMITTER).error(
          "Transaction ({}) encountered error and data has been potentially lost.", REQUEST);
    });
    assertThat(from(FencedRecommitNotice.COMMITTER)).hasSize(2);
    assertThat(from(FencedRecommitNotice.class.getName())).isEmpty();
  }

  @Test
  void uninstalledTheErrorIsFlinksAgain() throws Exception {
    checkpointWritten(now.minusSeconds(5));
    flinkLogsFenced();
    assertThat(from(FencedRecommitNotice.COMMITTER)).hasSize(1);
  }
}
