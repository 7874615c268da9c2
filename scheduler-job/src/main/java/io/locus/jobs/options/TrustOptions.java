package io.locus.jobs.options;

import io.locus.schemas.auth.Secrets;
import io.locus.operators.SchedulerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * What the scheduler trusts and for how long (issue 12): the pools it runs, node liveness, the time
 * and job-id rules, and the two secrets. Secrets come from files only, never from the command line
 * (a command line is visible to every user of the host).
 */
public final class TrustOptions {
  @Option(names = "--pools", split = ",", paramLabel = "POOL[,POOL...]",
      description = "The pools this scheduler runs; records for any other pool are dead-lettered "
          + "(unknown-pool). Default: any pool.")
  List<String> pools = List.of();

  @Option(names = "--node-timeout", defaultValue = "PT30S", paramLabel = "DURATION",
      description = "A node not heard from for this long (on its pool's liveness clock, which only "
          + "the pool's node reports move) is lost and its work re-placed. "
          + "Default: ${DEFAULT-VALUE}.")
  Duration nodeTimeout;

  @Option(names = "--max-clock-jump", defaultValue = "PT1M", paramLabel = "DURATION",
      description = "The clock skew allowed: an event time further ahead of its Kafka record's "
          + "timestamp is dead-lettered (clock). Default: ${DEFAULT-VALUE}.")
  Duration maxClockJump;

  @Option(names = "--job-retention", defaultValue = "P7D", paramLabel = "DURATION",
      description = "A job id is unique for this long after its arrival (record clock). "
          + "Default: ${DEFAULT-VALUE}.")
  Duration jobRetention;

  @Option(names = "--node-secret-file", paramLabel = "FILE",
      description = "Cluster node secret: every task event and node report must then be signed "
          + "with its node's key (locus agent node-key derives it), and a task event about an "
          + "attempt must carry the proof that the attempt was placed on its node.")
  Path nodeSecretFile;

  @Option(names = "--decision-secret-file", paramLabel = "FILE",
      description = "Decision secret shared with the agents: every decision is then signed.")
  Path decisionSecretFile;

  /** {@code cfg} with these settings. */
  public SchedulerConfig apply(SchedulerConfig cfg) {
    SchedulerConfig c = cfg
        .withNodeTimeoutMs(positive(nodeTimeout, "--node-timeout").toMillis())
        .withMaxClockJumpMs(positive(maxClockJump, "--max-clock-jump").toMillis())
        .withJobRetentionMs(positive(jobRetention, "--job-retention").toMillis())
        .withPools(new LinkedHashSet<>(pools));
    if (nodeSecretFile != null) {
      c = c.withNodeSecret(Secrets.read(nodeSecretFile));
    }
    if (decisionSecretFile != null) {
      c = c.withDecisionSecret(Secrets.read(decisionSecretFile));
    }
    return c;
  }

  private static Duration positive(Duration d, String option) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(option + " must be a positive duration, not " + d);
    }
    return d;
  }
}
