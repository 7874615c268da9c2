package io.locus.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus simulate --queue-config FILE} (issue 24): the file {@code locus queues apply} takes,
 * refused with every reason and exit 2 when bad, and per-queue results when good; and {@code locus
 * experiment fairness} end to end on its quick configuration and the repository's SWF sample.
 */
class SimulateQueuesTest {
  @TempDir Path tmp;

  private record Outcome(int code, String out, String err) {}

  private static Outcome run(String... args) {
    CommandLine cl = io.locus.cli.LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }

  private Path file(String name, String... lines) throws Exception {
    Path p = tmp.resolve(name);
    Files.writeString(p, String.join("\n", lines) + "\n");
    return p;
  }

  private Outcome simulate(Path config, String... more) {
    List<String> args = new ArrayList<>(List.of("simulate", "--workload", "tenants",
        "--workload-param", "workflows=1", "--workload-param", "flood=3",
        "--workload-param", "width=2", "--nodes", "2", "--provisioning", "srp",
        "--policy", "mch", "--cache-gb", "2", "--no-plots", "--quiet",
        "--out", tmp.resolve("out").toString()));
    if (config != null) {
      args.addAll(List.of("--queue-config", config.toString()));
    }
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  @Test
  void aBadTreeIsRefusedWithEveryReasonAndExit2() throws Exception {
    Path bad = file("bad.yaml", "queues:", "  - name: a", "    weight: -1",
        "    guaranteedSlots: 8", "    limitSlots: 4");
    Outcome o = simulate(bad);
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--queue-config: " + bad + " is refused (2 problem(s)): queue"
        + " 'a': weight must be a finite number > 0, got -1.0; queue 'a': guarantee 8 is above"
        + " its limit 4");
    assertThat(tmp.resolve("out")).doesNotExist();
  }

  @Test
  void aMalformedOrMissingFileNamesThePlaceAndExits2() throws Exception {
    Path typo = file("typo.yaml", "queues:", "  - name: a", "    weigth: 2");
    Outcome o = simulate(typo);
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--queue-config: " + typo + ": line 4, column 1 (at"
        + " queues[0].weigth): unknown key 'weigth' (known: cacheGuaranteeBytes,");
    Outcome missing = simulate(tmp.resolve("none.yaml"));
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("--queue-config: " + tmp.resolve("none.yaml")
        + ": no such file");
    Outcome cycle = simulate(file("cycle.yaml", "queues:", "  - {name: a, parent: b}",
        "  - {name: b, parent: a}"));
    assertThat(cycle.code()).isEqualTo(2);
    assertThat(cycle.err()).contains("is refused (", "a -> b -> a");
  }

  @Test
  void theQueueOptionsNeedAFile() {
    Outcome o = simulate(null, "--queue-dispatch", "fifo", "--max-locality-wait", "1",
        "--preemption-grace", "off");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--queue-dispatch applies with --queue-config only",
        "--max-locality-wait applies with --queue-config only",
        "--preemption-grace applies with --queue-config only");
  }

  @Test
  void aBadPreemptionGraceIsRefusedWithTheReason() throws Exception {
    Path good = file("two.yaml", "queues:", "  - {name: tenant-1, guaranteedSlots: 1}");
    Outcome bad = simulate(good, "--preemption-grace", "soon");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--preemption-grace: not a duration: 'soon'", "(or off)");
    Outcome long_ = simulate(good, "--preemption-grace", "2h");
    assertThat(long_.code()).isEqualTo(2);
    assertThat(long_.err()).contains("--preemption-grace must be between 0s and 1h, or off;"
        + " got 2h");
    assertThat(tmp.resolve("out")).doesNotExist();
  }

  @Test
  void aGoodTreeGivesPerQueueResults() throws Exception {
    Path good = file("tenants.yaml", "pool: ignored", "queues:",
        "  - {name: tenant-1, guaranteedSlots: 1}", "  - {name: tenant-2, guaranteedSlots: 1}",
        "  - {name: tenant-3, guaranteedSlots: 1}", "  - {name: tenant-4, guaranteedSlots: 1}");
    Outcome o = simulate(good);
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("| tenant-1 | 1 |", "| tenant-4 | 1 |", "queues: Jain's index",
        "| preempted | lost slot-s |");
    List<String> rows = Files.readAllLines(tmp.resolve("out").resolve("queues.csv"));
    assertThat(rows.get(0)).startsWith("queue,weight,guaranteed_slots,active_s,contended_s,")
        .contains(",preempted,lost_slot_s,");
    assertThat(rows).hasSize(6); // header, four tenants, (pool)
    assertThat(rows.get(5)).startsWith("(pool),");
    assertThat(Files.readAllLines(tmp.resolve("out").resolve("queue-series.csv")).get(0))
        .isEqualTo("time_s,pool_slots,jain,running_tenant-1,fair_share_tenant-1,"
            + "running_tenant-2,fair_share_tenant-2,running_tenant-3,fair_share_tenant-3,"
            + "running_tenant-4,fair_share_tenant-4");
    // a tree lacking a tenant refuses its jobs, and says so
    Path partial = file("partial.yaml", "queues:", "  - {name: tenant-1}");
    Outcome p = simulate(partial, "--queue-dispatch", "fifo");
    assertThat(p.out()).contains("jobs refused: their queue is not a leaf of --queue-config"
        + " (first: job tenant-", ": unknown queue 'tenant-", "(this pool's queues: default,"
        + " tenant-1))");
  }

  /** The repository's SWF sample (workloads' test resources); the tests run in cli/. */
  private static final Path SWF = Path.of("..", "workloads", "src", "test", "resources", "swf",
      "users-sample.swf");

  @Test
  void theFairnessExperimentRunsEndToEnd() throws Exception {
    assertThat(SWF).exists();
    Path out = tmp.resolve("fairness");
    Outcome o = run("experiment", "fairness", "--quick", "--policies", "mch",
        "--swf", SWF.toString(), "--out", out.toString());
    assertThat(o.code()).as(o.out() + o.err()).isZero();
    List<String> rows = Files.readAllLines(out.resolve("fairness.csv"));
    // per workload: FIFO-FA, FS-FA, FIFO-MCH, FS-MCH-nowait, FS-MCH, FS-MCH+preempt
    assertThat(rows).hasSize(1 + 2 * 6);
    assertThat(rows.get(0)).startsWith("workload,policy,mode,completed,makespan s,Jain,")
        .endsWith(",preempted,lost slot-s,lost % of busy");
    assertThat(rows.subList(1, 7)).extracting(r -> r.split(",")[2])
        .containsExactly("FIFO-FA", "FS-FA", "FIFO-MCH", "FS-MCH-nowait", "FS-MCH",
            "FS-MCH+preempt");
    // only the +preempt mode preempts
    assertThat(rows.subList(1, 6)).extracting(r -> {
      String[] c = r.split(",");
      return c[c.length - 3];
    }).containsOnly("0");
    assertThat(rows.get(7)).startsWith("swf-users-sample,FA,FIFO-FA,22/22,");
    // on the flood, fair share is fairer than FIFO (Jain is the sixth column)
    double fifo = Double.parseDouble(rows.get(3).split(",")[5]);
    double fair = Double.parseDouble(rows.get(5).split(",")[5]);
    assertThat(fair).isGreaterThan(fifo);
    assertThat(out.resolve("fairness.md")).content().contains("# fairness", "| tenants | MCH |");
    assertThat(out.resolve("fairness-queues.csv")).exists();
    assertThat(out.resolve("tenants").resolve("FS-MCH").resolve("queue-series.csv")).exists();
    assertThat(out.resolve("summary.csv")).exists();
    // plots, unless this host cannot draw (then a warning, and the run still succeeds)
    boolean drawn = Files.exists(out.resolve("plots").resolve("tenants-MCH-jain.png"));
    assertThat(drawn || o.out().contains("warning: no plots")).isTrue();
  }

  @Test
  void theFairnessExperimentRefusesFaAsAPolicyToCompare() {
    Outcome o = run("experiment", "fairness", "--quick", "--policies", "fa", "--out",
        tmp.resolve("x").toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--policies: FA is the experiment's locality-blind baseline");
  }
}
