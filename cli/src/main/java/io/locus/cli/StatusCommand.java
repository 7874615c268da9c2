package io.locus.cli;

import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.KafkaReachability;
import io.locus.schemas.SchedulerMetrics;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus status}: each pool's state as the topics tell it: policy and paused state, nodes
 * (alive, draining, lost, left), queue, running, completed, each queue's usage against its
 * guarantee and fair share (issue 24), and the latest failures with their reasons. Reads only;
 * works against any cluster the scheduler and agents use.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show each pool's policy, nodes (alive, draining, lost, left), queued, running"
        + " and completed tasks, each queue's usage against its guarantee and fair share, and the"
        + " latest failures with their reasons, read from the Kafka topics.")
public final class StatusCommand implements Callable<Integer> {
  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin KafkaClientOptions kafka;

  @Option(names = "--pool", paramLabel = "POOL", description = "Only this pool.")
  String pool;

  @Option(names = "--lookback", defaultValue = "PT10M", paramLabel = "DURATION",
      description = "How far back task events and metrics are read. Default: ${DEFAULT-VALUE}.")
  Duration lookback;

  @Option(names = "--node-history", defaultValue = "PT24H", paramLabel = "DURATION",
      description = "How long a node the scheduler declared lost, or saw leave, stays listed"
          + " (registered and draining nodes always are). Default: ${DEFAULT-VALUE}.")
  Duration nodeHistory;

  @Option(names = "--metrics-interval", defaultValue = "PT1S", paramLabel = "DURATION",
      description = "The scheduler's --metrics-interval-ms: with its checkpoint interval, how old"
          + " its metrics may be while it runs. Default: ${DEFAULT-VALUE}.")
  Duration metricsInterval;

  @Option(names = "--checkpoint-interval", defaultValue = "PT5S", paramLabel = "DURATION",
      description = "The scheduler's checkpoint interval (its metrics are visible at each"
          + " checkpoint). Default: ${DEFAULT-VALUE} (locus run's default).")
  Duration checkpointInterval;

  @Option(names = "--failures", defaultValue = "5", paramLabel = "N",
      description = "Latest failed or refused tasks shown per pool. Default: ${DEFAULT-VALUE}.")
  int failures;

  @Option(names = "--timeout", defaultValue = "PT30S", paramLabel = "DURATION",
      description = "Give up reading after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Override
  public Integer call() {
    if (failures < 0 || failures > 1000) {
      throw new IllegalArgumentException("--failures must be between 0 and 1000, got " + failures);
    }
    for (Map.Entry<String, Duration> d : Map.of("--lookback", lookback, "--timeout", timeout,
        "--node-history", nodeHistory, "--metrics-interval", metricsInterval,
        "--checkpoint-interval", checkpointInterval).entrySet()) {
      if (d.getValue().isNegative() || d.getValue().isZero()) {
        throw new IllegalArgumentException(d.getKey() + " must be positive, got " + d.getValue());
      }
    }
    var props = kafka.clientProperties();
    KafkaReachability.check(props,
        timeout.compareTo(KafkaReachability.DEFAULT_TIMEOUT) < 0 ? timeout
            : KafkaReachability.DEFAULT_TIMEOUT);
    long now = System.currentTimeMillis();
    StatusReader read = new StatusReader(props, pool, failures, timeout)
        .readAll(now - lookback.toMillis());
    print(spec.commandLine().getOut(), read, now);
    if (pool != null && (!read.pools.containsKey(pool) || !read.pools.get(pool).known())) {
      return 3;
    }
    return 0;
  }

  void print(PrintWriter out, StatusReader read, long now) {
    if (!read.missingTopics.isEmpty()) {
      out.println("missing topics: " + String.join(", ", read.missingTopics)
          + " ('locus topics create' creates them)");
    }
    List<PoolStatus> known = read.pools.values().stream().filter(PoolStatus::known).toList();
    List<PoolStatus> refusedOnly = read.pools.values().stream().filter(p -> !p.known()).toList();
    if (known.isEmpty()) {
      out.printf("%s: nothing in the last %s on Kafka at %s (is the scheduler running? is the"
          + " pool's name right?)%n", pool != null ? "pool " + pool : "no pool",
          human(lookback), kafka.bootstrap);
    }
    for (PoolStatus p : known) {
      printPool(out, p, now);
    }
    // A control for a pool the scheduler does not declare is refused and acked under that name;
    // the pool does not exist, so it gets no pool line, only its refusal.
    if (refusedOnly.stream().anyMatch(p -> p.ack != null)) {
      out.println("controls refused for pools the scheduler does not know:");
      for (PoolStatus p : refusedOnly) {
        if (p.ack != null) {
          out.printf("  %s: %s at %s: %s%n", p.pool, p.ack.getType(),
              CLOCK.format(Instant.ofEpochMilli(p.ackMs)), p.ack.getMessage());
        }
      }
    }
    // Likewise an agent that registers for such a pool is refused under its name.
    if (refusedOnly.stream().anyMatch(p -> p.refusalsSeen > 0)) {
      out.println("registrations refused for pools the scheduler does not know:");
      for (PoolStatus p : refusedOnly) {
        for (io.locus.schemas.NodeStatus v : p.refusals) {
          out.printf("  %s: node %s, agent instance %s: %s%n", p.pool, v.getNode(),
              v.getInstanceId(), v.getReason());
        }
      }
    }
    if (read.undecodable > 0) {
      out.printf("(%d records could not be decoded and were skipped)%n", read.undecodable);
    }
    out.flush();
  }

  private void printPool(PrintWriter out, PoolStatus p, long now) {
    SchedulerMetrics m = p.metrics;
    String policy = m != null ? m.getPolicy().toString()
        : p.ack != null ? p.ack.getPolicy().toString() : "?";
    // An ack is newer than the metrics only right after a control; then it says the policy.
    if (p.ack != null && p.ackMs > p.metricsMs) {
      policy = p.ack.getPolicy().toString();
    }
    long metricsAge = Math.max(0, now - p.metricsMs);
    // While the scheduler runs its metrics are at most one metrics period plus one checkpoint
    // old (the sink is transactional); 2 s more for the commit itself.
    long expectedAge = metricsInterval.toMillis() + checkpointInterval.toMillis() + 2000;
    String schedulerSays;
    if (m == null) {
      schedulerSays = " (SCHEDULER NOT REPORTING: no scheduler metrics in the last "
          + human(lookback) + "; is the scheduler job running?)";
    } else if (metricsAge > expectedAge) {
      schedulerSays = " (SCHEDULER NOT REPORTING: its last metrics are "
          + human(Duration.ofMillis(metricsAge)) + " old, it reports every "
          + interval(metricsInterval) + " and commits every " + interval(checkpointInterval)
          + "; is the scheduler job running? the figures below are from its last report)";
    } else {
      schedulerSays = " (metrics " + human(Duration.ofMillis(metricsAge)) + " old)";
    }
    out.printf("pool %s: policy %s%s%s%n", p.pool, policy,
        p.ack != null && p.ack.getPaused() ? ", PAUSED" : "", schedulerSays);
    // Nodes as the scheduler judged them (node-status), not as reports claim.
    Map<PoolStatus.NodeState, List<String>> nodes =
        p.nodesByState(now - nodeHistory.toMillis());
    int alive = nodes.get(PoolStatus.NodeState.ALIVE).size();
    int draining = nodes.get(PoolStatus.NodeState.DRAINING).size();
    out.printf("  nodes: %d registered (%d of them draining), %d lost, %d left%s%n",
        alive + draining, draining, nodes.get(PoolStatus.NodeState.LOST).size(),
        nodes.get(PoolStatus.NodeState.LEFT).size(),
        m == null ? "" : "; the scheduler counts " + m.getRegisteredNodes() + " registered, "
            + m.getBusySlots() + "/" + m.getTotalSlots() + " slots busy");
    list(out, "draining", nodes.get(PoolStatus.NodeState.DRAINING));
    list(out, "lost (in the last " + human(nodeHistory) + ")",
        nodes.get(PoolStatus.NodeState.LOST).stream().map(id -> id + " ("
            + p.nodes.get(id).verdict().getReason() + ")").toList());
    if (p.refusalsSeen > 0) {
      out.printf("  registrations refused: %d; latest:%n", p.refusalsSeen);
      List<io.locus.schemas.NodeStatus> latest = new java.util.ArrayList<>(p.refusals);
      java.util.Collections.reverse(latest);
      for (io.locus.schemas.NodeStatus v : latest) {
        out.printf("    node %s, agent instance %s: %s (%s)%n", v.getNode(), v.getInstanceId(),
            v.getReason(), v.getCode());
      }
    }
    if (m != null) {
      out.printf("  tasks: %d queued, %d running, %d completed, %d failed (placements %d)%n",
          m.getQueueLength(), m.getRunningTasks(), m.getCompletions(), m.getFailures(),
          m.getPlacements());
      if (m.getPendingReason() != null) {
        out.printf("  pending: %s%n", m.getPendingReason());
      }
      String reasons = reasons(m.getPendingByCode());
      if (!reasons.isEmpty()) {
        out.printf("  queued by reason: %s%n", reasons);
      }
      List<String> queues = QueueTable.lines(m.getQueueUsage());
      if (!queues.isEmpty()) {
        out.printf("  queues (slots of %d; share: of the pool, dominant resource):%n",
            m.getTotalSlots());
        queues.forEach(l -> out.println("    " + l));
      }
    }
    if (!p.shadows.isEmpty()) {
      out.printf("  shadows (predicted by the scheduler's model since epoch %d):%n",
          p.shadows.values().iterator().next().getEpoch());
      for (var d : p.shadows.values()) {
        out.printf("    %-12s %s placed %d, mean response %s, %.1f GB to move, utilisation %.0f%%%n",
            d.getPolicy(), d.getActive() ? "(active)" : "        ", d.getPlaced(),
            Double.isNaN(d.getMeanResponseMs()) ? "-"
                : String.format(java.util.Locale.ROOT, "%.2f s", d.getMeanResponseMs() / 1000),
            d.getBytesToMove() / 1e9, d.getUtilisation() * 100);
      }
    }
    if (p.ack != null) {
      out.printf("  last control: %s %s at %s: %s%n", p.ack.getType(),
          p.ack.getAccepted() ? "applied" : "REFUSED", CLOCK.format(Instant.ofEpochMilli(p.ackMs)),
          p.ack.getMessage());
    }
    List<PoolStatus.Failure> fs = p.latestFailures();
    if (p.failuresSeen == 0) {
      out.printf("  failures: none in the last %s%n", human(lookback));
    } else {
      out.printf("  failures: %d in the last %s%s%n", p.failuresSeen, human(lookback),
          fs.isEmpty() ? "" : "; latest:");
      for (PoolStatus.Failure f : fs) {
        out.printf("    %s %s task %s attempt %d on %s%s: %s%n",
            CLOCK.format(Instant.ofEpochMilli(f.timeMs())), f.type(), f.taskId(), f.attempt(),
            f.node(), f.exitCode() == 0 ? "" : " (exit code " + f.exitCode() + ")",
            f.message() == null ? "no message" : f.message().strip().replace('\n', ' '));
      }
    }
  }

  /**
   * The scheduler's counts of queued tasks per pending-reason code ({@code
   * SchedulerMetrics.pendingByCode}), in the codes' order (the first that applies to a task is
   * its code), each with its label: "3 locality-wait (waiting for a data holder), 1 no-free-slot
   * (waiting for a free slot)". A code this client does not know (a newer scheduler) is shown as
   * it is, after the known ones. Empty when nothing is queued.
   */
  static String reasons(Map<String, Long> byCode) {
    if (byCode == null || byCode.isEmpty()) {
      return "";
    }
    List<String> parts = new java.util.ArrayList<>();
    for (io.locus.core.model.PendingCode c : io.locus.core.model.PendingCode.values()) {
      Long n = byCode.get(c.code());
      if (n != null && n > 0) {
        parts.add(n + " " + c.code() + " (" + c.label() + ")");
      }
    }
    byCode.forEach((code, n) -> {
      if (io.locus.core.model.PendingCode.of(code) == null && n != null && n > 0) {
        parts.add(n + " " + code);
      }
    });
    return String.join(", ", parts);
  }

  private static void list(PrintWriter out, String what, List<String> nodes) {
    if (!nodes.isEmpty()) {
      out.printf("    %s: %s%n", what, nodes.size() <= 20 ? String.join(", ", nodes)
          : String.join(", ", nodes.subList(0, 20)) + " and " + (nodes.size() - 20) + " more");
    }
  }

  /** An interval, which may be under a second (human() would say "0 s"). */
  private static String interval(Duration d) {
    return d.toMillis() < 1000 ? d.toMillis() + " ms" : human(d);
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    if (s < 120) {
      return s + " s";
    }
    if (s < 7200) {
      return s / 60 + " min";
    }
    return s / 3600 + " h";
  }
}
