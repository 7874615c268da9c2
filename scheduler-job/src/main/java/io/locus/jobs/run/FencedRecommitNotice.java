package io.locus.jobs.run;

import io.locus.jobs.RestorePoint;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.message.Message;
import org.slf4j.LoggerFactory;

/**
 * Turns the Kafka sink's "Unable to commit transaction … because its producer is already fenced
 * … most likely signals data loss" ERROR into one INFO line that says what it means, when it is
 * the harmless re-commit of a restore (issue 22; docs/reliability.md "Known limits").
 *
 * <p>Why it is harmless then: on restore Flink commits the restored checkpoint's transactions
 * again. If the killed run had already committed one, a Kafka 4 broker (transactions v2) has
 * bumped the producer epoch at that commit and refuses the repeat as fenced; a transaction the
 * run had <em>not</em> committed is still open at the checkpointed epoch and commits normally.
 * The one way a fenced commit loses data is a transaction the broker aborted because it stayed
 * open longer than the transaction timeout — so the line is demoted only while the checkpoint
 * that was restored is younger than that timeout; otherwise Flink's ERROR stands.
 */
final class FencedRecommitNotice extends AbstractFilter {
  static final String COMMITTER = "org.apache.flink.connector.kafka.sink.internal.KafkaCommitter";
  static final String FENCED = "because its producer is already fenced";
  private static final Pattern TX_ID = Pattern.compile("transactionalId='([^']*)'");
  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(FencedRecommitNotice.class);

  private final RestorePoint from;
  private final Path checkpoints;
  private final Path savepoints;
  private final Instant started;
  private final Duration timeout;
  private final Clock clock;

  /**
   * @param from what this run restored at start (fresh: only failovers within the run count)
   * @param checkpoints where this run's checkpoints are retained (null: none known)
   * @param savepoints where its savepoints go (null: none known)
   * @param timeout the exactly-once sinks' transaction timeout
   */
  FencedRecommitNotice(RestorePoint from, Path checkpoints, Path savepoints, Duration timeout,
      Clock clock) {
    super(Result.NEUTRAL, Result.NEUTRAL);
    this.from = from;
    this.checkpoints = checkpoints;
    this.savepoints = savepoints;
    this.timeout = timeout;
    this.clock = clock;
    this.started = clock.instant();
  }

  /** Installs the notice as a global filter of this JVM's Log4j configuration; false if absent. */
  static boolean install(FencedRecommitNotice notice) {
    if (!(LogManager.getContext(false) instanceof LoggerContext ctx)) {
      return false; // another logging backend: Flink's line stays as it is
    }
    notice.start();
    ctx.getConfiguration().addFilter(notice);
    ctx.updateLoggers();
    return true;
  }

  /** Removes it again (the run ended). */
  static void uninstall(FencedRecommitNotice notice) {
    if (LogManager.getContext(false) instanceof LoggerContext ctx) {
      ctx.getConfiguration().removeFilter(notice);
      ctx.updateLoggers();
    }
  }

  @Override
  public Result filter(Logger logger, Level level, Marker marker, String msg, Object... params) {
    return judge(logger.getName(), msg, params != null && params.length > 0 ? params[0] : null);
  }

  @Override
  public Result filter(Logger logger, Level level, Marker marker, Message msg, Throwable t) {
    return msg == null ? Result.NEUTRAL : judge(logger.getName(), msg.getFormat(),
        msg.getParameters() != null && msg.getParameters().length > 0
            ? msg.getParameters()[0] : null);
  }

  @Override
  public Result filter(LogEvent event) {
    Message m = event.getMessage();
    return m == null ? Result.NEUTRAL : judge(event.getLoggerName(), m.getFormat(),
        m.getParameters() != null && m.getParameters().length > 0 ? m.getParameters()[0] : null);
  }

  private Result judge(String logger, String format, Object request) {
    if (!COMMITTER.equals(logger) || format == null || !format.contains(FENCED)) {
      return Result.NEUTRAL;
    }
    Optional<Instant> restored = restoredCheckpoint();
    if (restored.isEmpty()) {
      return Result.NEUTRAL;
    }
    Duration age = Duration.between(restored.get(), clock.instant());
    if (age.compareTo(timeout) >= 0) {
      return Result.NEUTRAL; // the broker may have aborted it: Flink's ERROR is the truth
    }
    LOG.info("restore: transaction {} was already committed by the run before this restore; "
        + "the broker (Kafka 4, transactions v2) refuses the repeated commit as fenced. Nothing "
        + "is lost: the restored checkpoint is {} s old, under the {} s transaction timeout, so "
        + "a transaction that run had not committed would still be open and commit normally "
        + "(docs/reliability.md, Known limits).", transactionalId(request), age.toSeconds(),
        timeout.toSeconds());
    return Result.DENY;
  }

  /**
   * When the checkpoint being restored was completed: the newest one retained since this run
   * started (a failover within the run restores it), else the restore point the run began with.
   */
  private Optional<Instant> restoredCheckpoint() {
    Optional<Instant> newest = RestorePoint.latest(checkpoints, savepoints).writtenAt();
    if (newest.isPresent() && !newest.get().isBefore(started)) {
      return newest;
    }
    return from.writtenAt();
  }

  static String transactionalId(Object request) {
    if (request == null) {
      return "?";
    }
    Matcher m = TX_ID.matcher(String.valueOf(request));
    return m.find() ? m.group(1) : String.valueOf(request);
  }
}
