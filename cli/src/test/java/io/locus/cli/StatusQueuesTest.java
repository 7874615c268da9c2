package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.QueueUsage;
import io.locus.schemas.SchedulerMetrics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code locus status}'s per-queue table (issue 24), printed from a pool's latest metrics. */
class StatusQueuesTest {
  private static final long NOW = 1_700_000_000_000L;

  private static QueueUsage usage(String queue, String parent, boolean leaf, double weight,
      double guarantee, Integer limit, int running, int pending, double share, double fair,
      long preempted) {
    return QueueUsage.newBuilder().setQueue(queue).setParent(parent).setLeaf(leaf)
        .setWeight(weight).setGuarantee(guarantee).setLimit(limit).setRunning(running)
        .setPending(pending).setShare(share).setFairShare(fair)
        .setBorrowed(Math.max(0, running - guarantee)).setPreempted(preempted).build();
  }

  private static String status(SchedulerMetrics m) {
    CommandLine cl = LocusCli.commandLine();
    cl.parseArgs("status", "--bootstrap-servers", "kafka:9092");
    StatusCommand cmd = cl.getSubcommands().get("status").getCommand();
    StatusReader read = new StatusReader(new Properties(), null, 5, Duration.ofSeconds(1));
    PoolStatus p = new PoolStatus("batch", 5);
    p.metrics(m, NOW - 500);
    read.pools.put("batch", p);
    StringWriter out = new StringWriter();
    cmd.print(new PrintWriter(out), read, NOW);
    return out.toString();
  }

  private static SchedulerMetrics.Builder metrics() {
    return SchedulerMetrics.newBuilder().setPool("batch").setTimeMs(NOW - 600).setEpoch(1)
        .setPolicy("MCH").setQueueLength(7).setRunningTasks(8).setRegisteredNodes(4)
        .setTotalSlots(8).setBusySlots(8).setPlacements(20).setCompletions(12).setFailures(0)
        .setBytesLocal(0).setBytesPeer(0).setBytesStorage(0);
  }

  @Test
  void eachQueueIsARowUnderItsParentWithItsShareGuaranteeAndBorrowing() {
    String out = status(metrics().setQueueUsage(List.of(
        usage("eng", null, false, 2, 6, 8, 6, 7, 0.75, 6, 1),
        usage("ml", "eng", true, 1, 2, null, 5, 4, 0.625, 4.5, 1),
        usage("web", "eng", true, 1, 4, null, 1, 3, 0.125, 1.5, 0),
        usage("default", null, true, 1, 2.6667, null, 2, 0, 0.25, 2, 0))).build());
    assertThat(out).contains("  queues (slots of 8; share: of the pool, dominant resource):\n"
        + "    queue                weight guarantee limit running pending  share fair share"
        + " borrowed preempted\n"
        + "    eng/                      2         6     8       6       7  75.0%          6"
        + "        0         1\n"
        + "      ml                      1         2     -       5       4  62.5%        4.5"
        + "        3         1\n"
        + "      web                     1         4     -       1       3  12.5%        1.5"
        + "        0         0\n"
        + "    default                   1       2.7     -       2       0  25.0%          2"
        + "        0         0\n");
  }

  @Test
  void metricsWithoutQueueUsagePrintNoQueueTable() {
    // an older scheduler's record (no queueUsage): status prints the rest as before
    String out = status(metrics().build());
    assertThat(out).contains("tasks: 7 queued, 8 running, 12 completed").doesNotContain("queues");
  }

  @Test
  void slotFiguresAreWholeOrOneDecimal() {
    assertThat(QueueTable.number(8)).isEqualTo("8");
    assertThat(QueueTable.number(2.5)).isEqualTo("2.5");
    assertThat(QueueTable.number(2.6667)).isEqualTo("2.7");
    assertThat(QueueTable.number(Double.NaN)).isEqualTo("-");
  }
}
