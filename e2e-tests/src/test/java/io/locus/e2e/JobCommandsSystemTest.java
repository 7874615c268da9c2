package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentHost;
import io.locus.cli.EmbeddedLocus;
import io.locus.connectors.DeliveryMode;
import io.locus.operators.SchedulerConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23 item 1, the commands a user reaches for, against the real scheduler: an in-JVM broker,
 * the scheduler job on a MiniCluster with RocksDB (exactly-once), simulated agents talking only
 * through Kafka, and {@code locus job submit / status / list / cancel} run as a user runs them.
 * Pool {@code busy} has agents; pool {@code idle} has none, so its jobs stay queued (pending
 * code {@code no-node}) until cancelled.
 */
@Tag("integration")
@Timeout(300)
class JobCommandsSystemTest {
  private static final String BUSY = "e2e-jobs-busy";
  private static final String IDLE = "e2e-jobs-idle";
  private static final Duration WAIT = Duration.ofSeconds(90);

  private static WholeSystem.CliRun job(String bootstrap, String command, String... args) {
    List<String> all = new ArrayList<>(List.of("job", command, "--bootstrap-servers", bootstrap));
    all.addAll(List.of(args));
    return WholeSystem.cli(all.toArray(new String[0]));
  }

  @Test
  void submitWaitStatusListAndCancelAgainstTheScheduler() throws Exception {
    SchedulerConfig.PolicySpec mch = new SchedulerConfig.PolicySpec("MCH", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(mch, Map.of(), 1000, 3)
        .withPools(Set.of(BUSY, IDLE));
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.EXACTLY_ONCE,
            Duration.ofMillis(500));
        AgentHost<?> agents = WholeSystem.simulatedAgents(locus.bootstrapServers(), BUSY, 2, 2)) {
      String b = locus.bootstrapServers();

      // submit one job by hand and wait: exit 0 once the scheduler says COMPLETED
      WholeSystem.CliRun sub = job(b, "submit", "--pool", BUSY, "--job-id", "hand-1",
          "--input", "f-1:1000000", "--priority", "5", "--wait", "--timeout", "PT90S");
      assertThat(sub.code()).as("%s%s", sub.out(), sub.err()).isZero();
      assertThat(sub.out()).contains(BUSY + "/hand-1");

      WholeSystem.CliRun st = job(b, "status", BUSY + "/hand-1");
      assertThat(st.code()).as(st.err()).isZero();
      assertThat(st.out()).contains("COMPLETED").contains(BUSY + "-node-");

      // the same id again is the scheduler's duplicate: --wait fails at once naming it
      long t0 = System.nanoTime();
      WholeSystem.CliRun dup = job(b, "submit", "--pool", BUSY, "--job-id", "hand-1",
          "--input", "f-1:1000000", "--wait", "--timeout", "PT5M");
      assertThat(dup.code()).as("%s%s", dup.out(), dup.err()).isEqualTo(1);
      assertThat(dup.out() + dup.err()).contains("duplicate-job");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("fails fast, not at --timeout")
          .isLessThan(Duration.ofSeconds(60));

      // locus replay of a trace holding that id again fails fast too, naming the dead letter
      java.nio.file.Path trace = java.nio.file.Files.createTempFile("locus-dup", ".jsonl");
      java.nio.file.Files.writeString(trace, "{\"format\":\"locus-trace\",\"version\":1,"
          + "\"name\":\"dup\",\"jobs\":1}\n{\"jobId\":\"hand-1\",\"arrival\":0,"
          + "\"inputs\":[{\"id\":\"f-1\",\"bytes\":1000000}],\"computeSeconds\":0.0}\n");
      long r0 = System.nanoTime();
      WholeSystem.CliRun rep = WholeSystem.cli("replay", "--trace", trace.toString(),
          "--format", "locus", "--pool", BUSY, "--bootstrap-servers", b, "--wait", "--timeout",
          "PT5M");
      assertThat(rep.code()).as("%s%s", rep.out(), rep.err()).isNotZero();
      assertThat(rep.out() + rep.err()).contains("duplicate-job");
      assertThat(Duration.ofNanos(System.nanoTime() - r0)).as("replay fails fast")
          .isLessThan(Duration.ofSeconds(60));

      // a job with nowhere to run stays queued, and says why
      assertThat(job(b, "submit", "--pool", IDLE, "--job-id", "q-1", "--input", "f-2:10")
          .code()).isZero();
      WholeSystem.await(WAIT, "q-1 queued with a reason", () -> {
        WholeSystem.CliRun s = job(b, "status", IDLE + "/q-1", "--json");
        return s.code() == 0 && s.out().contains("QUEUED") && s.out().contains("no-node");
      });

      // cancel it: exit 0 on the scheduler's CANCELLED
      WholeSystem.CliRun c = job(b, "cancel", IDLE + "/q-1", "--reason", "no longer needed");
      assertThat(c.code()).as("%s%s", c.out(), c.err()).isZero();
      WholeSystem.CliRun after = job(b, "status", IDLE + "/q-1");
      assertThat(after.out()).contains("CANCELLED").contains("no longer needed");

      // refusals: a finished job, an unknown one
      WholeSystem.CliRun again = job(b, "cancel", IDLE + "/q-1");
      assertThat(again.code()).isEqualTo(1);
      assertThat(again.out() + again.err()).contains("job-finished");
      WholeSystem.CliRun unknown = job(b, "cancel", IDLE + "/never-submitted");
      assertThat(unknown.code()).isEqualTo(1);
      assertThat(unknown.out() + unknown.err()).contains("unknown-job");
      WholeSystem.CliRun noStatus = job(b, "status", IDLE + "/never-submitted");
      assertThat(noStatus.code()).isEqualTo(3);

      // list by state
      WholeSystem.CliRun list = job(b, "list", "--pool", IDLE, "--state", "CANCELLED");
      assertThat(list.code()).as(list.err()).isZero();
      assertThat(list.out()).contains("q-1");
      WholeSystem.CliRun none = job(b, "list", "--pool", IDLE, "--state", "QUEUED");
      assertThat(none.out()).doesNotContain("q-1");
      locus.checkJobAlive();
    }
  }

  /**
   * "Why pending" on the whole system: MCH holds a job for the busy node that caches its input
   * while another node idles; its job status says locality-wait naming that node, {@code locus
   * status} counts it under that reason; cancelling the job that keeps the holder busy frees it,
   * and the waiting job runs there.
   */
  @Test
  void aJobMchHoldsForItsHolderSaysSoUntilTheHolderFrees() throws Exception {
    String pool = "e2e-jobs-mch";
    SchedulerConfig.PolicySpec mch = new SchedulerConfig.PolicySpec("MCH", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(mch, Map.of(), 1000, 3).withPools(Set.of(pool));
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(1));
        AgentHost<?> agents = WholeSystem.simulatedAgents(locus.bootstrapServers(), pool, 2, 1)) {
      String b = locus.bootstrapServers();
      // a long job (3,000 modelled s = 30 s at the agents' time scale) takes hot-1 to its node
      assertThat(job(b, "submit", "--pool", pool, "--job-id", "long-1", "--input",
          "hot-1:10000000", "--compute-seconds", "3000").code()).isZero();
      String[] holder = new String[1];
      WholeSystem.await(WAIT, "long-1 running", () -> {
        WholeSystem.CliRun s = job(b, "status", pool + "/long-1", "--json");
        if (s.code() == 0 && s.out().contains("RUNNING")) {
          holder[0] = s.out().contains(pool + "-node-0") ? pool + "-node-0" : pool + "-node-1";
          return true;
        }
        return false;
      });
      // the same input: MCH waits for the holder although the other node is idle
      assertThat(job(b, "submit", "--pool", pool, "--job-id", "after-1", "--input",
          "hot-1:10000000").code()).isZero();
      WholeSystem.await(WAIT, "after-1 waiting for its holder", () -> {
        WholeSystem.CliRun s = job(b, "status", pool + "/after-1");
        return s.code() == 0 && s.out().contains("locality-wait") && s.out().contains(holder[0]);
      });
      WholeSystem.await(WAIT, "locus status counts it", () -> {
        WholeSystem.CliRun s = WholeSystem.cli("status", "--bootstrap-servers", b, "--pool", pool);
        return s.out().contains("queued by reason") && s.out().contains("waiting for a data holder");
      });
      // cancel the long job: the holder frees and the waiting job runs there
      assertThat(job(b, "cancel", pool + "/long-1").code()).isZero();
      WholeSystem.await(WAIT, "after-1 completed", () -> {
        WholeSystem.CliRun s = job(b, "status", pool + "/after-1", "--json");
        return s.code() == 0 && s.out().contains("COMPLETED");
      });
      WholeSystem.CliRun done = job(b, "status", pool + "/after-1");
      assertThat(done.out()).contains(holder[0]);
      locus.checkJobAlive();
    }
  }
}
