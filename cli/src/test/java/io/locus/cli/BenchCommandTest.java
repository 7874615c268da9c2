package io.locus.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.cli.bench.BenchConfig;
import io.locus.cli.bench.BenchRun;
import io.locus.cli.bench.StepResult;
import io.locus.core.policy.PolicyRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus bench}: a bad argument says what is wrong, and nothing starts; every registered
 * file policy can be measured; a host that cannot draw the plot still gets the results.
 */
class BenchCommandTest {
  private record Run(int code, String err) {}

  @TempDir Path tmp;

  private Run run(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    String[] all = new String[args.length + 2];
    all[0] = "bench";
    System.arraycopy(args, 0, all, 1, args.length);
    all[all.length - 1] = "--out=" + tmp.resolve("out");
    int code = cl.execute(all);
    return new Run(code, err.toString());
  }

  @Test
  void everyBadArgumentIsNamedAtOnce() {
    Run r = run("--policy", "FA,BOGUS", "--delivery", "twice", "--state-backend", "memory",
        "--workload", "idle", "--nodes", "0", "--slots", "0", "--rates", "100,50,-1",
        "--step", "PT0.1S", "--queue-depth", "-1", "--time-scale", "0");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("unknown policy 'BOGUS'")
        .contains("--delivery:")
        .contains("--state-backend must be rocksdb or hashmap, not 'memory'")
        .contains("unknown workload 'idle': zipf or no-idle")
        .contains("--nodes must be between 1 and 100000")
        .contains("--slots must be between 1 and 1024")
        .contains("--rates must rise: 50.0 after 100.0")
        .contains("--rates: -1.0 is not a rate")
        .contains("--step must be ≥ 0.5 s")
        .contains("--queue-depth must be ≥ 0")
        .contains("--time-scale must be > 0")
        .contains("locus bench --help");
    assertThat(tmp.resolve("out")).doesNotExist();
  }

  @Test
  void splitPoliciesAndDuplicatesAreRefused() {
    Run r = run("--policy", "FA,fa,FARM");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--policy FARM is a split policy")
        .contains("--policy lists a policy twice");
  }

  @Test
  void moreResultsThanNodesAndOversizedPreloadAreRefused() {
    Run r = run("--nodes", "2", "--pool-count", "1,4", "--workload", "no-idle", "--files", "1000",
        "--file-bytes", "10000000");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--pool-count 4 is more than --nodes 2")
        .contains("must fit the agents' 2 GB cache");
  }

  @Test
  void realAgentOptionsNeedRealAgents() {
    Run r = run("--tasks", "10", "--template", "sha256");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--tasks applies to --real-agents only")
        .contains("--template applies to --real-agents only");
    Run t = run("--real-agents", "--template", "md5", "--tasks", "0");
    assertThat(t.code()).isEqualTo(2);
    assertThat(t.err()).contains("--template must be true, sha256 or sleep, not 'md5'")
        .contains("--tasks: 0 is not between 1 and 1000000");
    Run s = run("--real-agents", "--task-seconds", "2");
    assertThat(s.code()).isEqualTo(2);
    assertThat(s.err()).contains("--task-seconds applies to --template sleep only");
    Run z = run("--real-agents", "--template", "sleep", "--task-seconds", "0");
    assertThat(z.code()).isEqualTo(2);
    assertThat(z.err()).contains("--task-seconds must be > 0 and at most 3600, got 0.0");
  }

  /** --product-defaults measures what a user gets: the agent's depth, locus run's interval. */
  @Test
  void productDefaultsTakeTheAgentsDepthAndRunsInterval() {
    CommandLine cl = LocusCli.commandLine();
    cl.parseArgs("bench", "--real-agents", "--product-defaults", "--delivery", "exactly-once");
    BenchCommand b = cl.getSubcommands().get("bench").getCommand();
    assertThat(b.realConfig().queueDepth()).isNull();
    assertThat(b.realConfig().checkpoint()).isEqualTo(io.locus.jobs.run.RunCommand
        .defaultCheckpointInterval(io.locus.connectors.DeliveryMode.EXACTLY_ONCE));
    CommandLine c2 = LocusCli.commandLine();
    c2.parseArgs("bench", "--real-agents");
    BenchCommand own = c2.getSubcommands().get("bench").getCommand();
    assertThat(own.realConfig().checkpoint()).isNull();
  }

  @Test
  void realAgentsHoldALocalQueueOfTheirSlotsUnlessTold() {
    CommandLine cl = LocusCli.commandLine();
    cl.parseArgs("bench", "--real-agents");
    BenchCommand byDefault = cl.getSubcommands().get("bench").getCommand();
    assertThat(byDefault.realConfig().queueDepth()).isEqualTo(byDefault.realConfig().slots())
        .isEqualTo(4);
    CommandLine c2 = LocusCli.commandLine();
    c2.parseArgs("bench", "--real-agents", "--queue-depth", "0");
    BenchCommand none = c2.getSubcommands().get("bench").getCommand();
    assertThat(none.realConfig().queueDepth()).isZero();
    Run r = run("--real-agents", "--queue-depth", "1025");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--queue-depth must be at most 1024 with --real-agents")
        .doesNotContain("one --policy");
  }

  @Test
  void realAgentsMeasureFaUnlessTold() {
    CommandLine cl = LocusCli.commandLine();
    cl.parseArgs("bench", "--real-agents");
    BenchCommand c = cl.getSubcommands().get("bench").getCommand();
    c.validate();
    assertThat(c.realConfig().policy()).isEqualTo("FA");
    Run r = run("--real-agents", "--policy", "FA,MCH");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--real-agents runs one --policy and one --delivery at a time");
  }

  /** Every file policy of the core's registry, by name or as "all"; no list of our own. */
  @Test
  void everyRegisteredFilePolicyCanBeMeasured() {
    List<String> registered = PolicyRegistry.fileNames();
    assertThat(registered).contains("EFT", "FA", "MCH", "GCC");
    for (String name : registered) {
      assertThat(parse("--policy", name.toLowerCase(Locale.ROOT)).validate())
          .as(name).singleElement().satisfies(c -> assertThat(c.policy()).isEqualTo(name));
    }
    assertThat(parse("--policy", "all").validate()).extracting(BenchConfig::policy)
        .containsExactlyElementsOf(registered);
    Run twice = run("--policy", "EFT,earliest_finish");
    assertThat(twice.code()).isEqualTo(2);
    assertThat(twice.err()).contains("--policy lists a policy twice");
  }

  /**
   * A host without font libraries fails inside AWT with an Error (UnsatisfiedLinkError for
   * libharfbuzz, AWTError): the bench warns, writes the table and bench.csv, and exits 0.
   */
  @Test
  void aHostThatCannotDrawGetsAWarningAndStillTheResults() throws Exception {
    for (Error cannotDraw : List.<Error>of(
        new UnsatisfiedLinkError("/usr/lib/jvm/lib/libfontmanager.so: libharfbuzz.so.0: cannot"
            + " open shared object file"),
        new java.awt.AWTError("no font configuration"),
        new NoClassDefFoundError("Could not initialize class sun.awt.X11FontManager"))) {
      BenchCommand bench = parse();
      bench.plotter = (file, results) -> {
        throw cannotDraw;
      };
      BenchConfig c = bench.validate().get(0);
      BenchRun.Result result = new BenchRun.Result(c, List.of(new StepResult(c.label() + " @500",
          500, 500, 499, 498, 1.5, 4.0, 9.0, 1, 0, true)), List.of());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream warn = new ByteArrayOutputStream();
      int code = bench.report(List.of(result), List.of(), new PrintStream(out, true, UTF_8),
          new PrintStream(warn, true, UTF_8));
      assertThat(code).as(cannotDraw.toString()).isZero();
      assertThat(warn.toString(UTF_8)).startsWith("warning: no plot ")
          .contains(cannotDraw.getMessage()).contains("font libraries");
      assertThat(out.toString(UTF_8)).contains("sustained", "Wrote " + tmp.resolve("out")
          .resolve("bench.csv")).doesNotContain("bench.png");
      assertThat(Files.readAllLines(tmp.resolve("out").resolve("bench.csv")))
          .hasSize(2).last().asString().startsWith(c.label() + " @500,FA,");
      assertThat(tmp.resolve("out").resolve("bench.png")).doesNotExist();
    }
    BenchCommand bench = parse();
    bench.plotter = (file, results) -> {
      throw new OutOfMemoryError("Java heap space");
    };
    assertThatThrownBy(() -> bench.report(List.of(), List.of(),
        new PrintStream(new ByteArrayOutputStream(), true, UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, UTF_8)))
        .as("the JVM's own failures are not a drawing problem")
        .isInstanceOf(OutOfMemoryError.class);
  }

  @Test
  void overloadFactorsAreCheckedAndCarried() {
    Run r = run("--overload", "2,0.5,-1", "--rates", "100");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--overload: 0.5 is not a factor in [1, 100]")
        .contains("--overload: -1.0 is not a factor");
    assertThat(run("--real-agents", "--overload", "2").err())
        .contains("--overload applies to the simulated agents' rising steps");
    assertThat(parse("--overload", "2,4").validate()).allSatisfy(c ->
        assertThat(c.overload()).containsExactly(2.0, 4.0));
    assertThat(parse().validate()).allSatisfy(c -> assertThat(c.overload()).isEmpty());
  }

  /**
   * An overload step is reported against the sustained rate (table and CSV), and is never taken
   * for a new sustained rate even when it kept up.
   */
  @Test
  void overloadStepsAreReportedAgainstTheSustainedRate() throws Exception {
    BenchCommand bench = parse("--overload", "2,4");
    bench.plotter = (file, results) -> null;
    BenchConfig c = bench.validate().get(0);
    StepResult kept = new StepResult(c.label(), 1000, 1000, 999, 990, 2, 5, 9, 10, 0, true);
    StepResult lost = new StepResult(c.label(), 2000, 2000, 1200, 1200, 900, 2000, 2100, 9000, 0,
        false);
    // 2×: placed 1,900/s, 190 % of 1,000 (kept up, yet not a sustained rate); 4×: 850/s, 85 %
    StepResult twice = new StepResult(c.label(), 2000, 2000, 1900, 1900, 30, 90, 99, 100, 0, true,
        2, 1000);
    StepResult four = new StepResult(c.label(), 4000, 4000, 850, 850, 4000, 8000, 8100, 20000, 0,
        false, 4, 1000);
    BenchRun.Result result = new BenchRun.Result(c, List.of(kept, lost, twice, four), List.of());
    assertThat(result.sustained()).isSameAs(kept);
    assertThat(twice.percentOfSustained()).isEqualTo(190.0);
    assertThat(twice.holds()).isTrue();
    assertThat(four.holds()).isFalse();
    assertThat(kept.holds()).as("a rising step is no overload step").isFalse();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    bench.report(List.of(result), List.of(), new PrintStream(out, true, UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, UTF_8));
    String table = out.toString(UTF_8);
    assertThat(table).contains("== locus bench: overload")
        .containsPattern("FA at-least-once rocksdb zipf K=1 +2× +1000 +2000 +1900 +190\\.0 .* yes")
        .containsPattern("FA at-least-once rocksdb zipf K=1 +4× +1000 +4000 +850 +85\\.0 .* no");
    List<String> csv = Files.readAllLines(tmp.resolve("out").resolve("bench.csv"));
    List<String> cols = List.of(csv.get(0).split(",", -1));
    assertThat(cols).endsWith("overload_factor", "sustained_per_s", "placed_pct_of_sustained");
    List<String[]> rows = csv.subList(1, csv.size()).stream().map(l -> l.split(",", -1)).toList();
    assertThat(rows).hasSize(4).allSatisfy(v -> assertThat(v).hasSize(cols.size()));
    int f = cols.indexOf("overload_factor");
    assertThat(rows.get(0)[f]).isEmpty();
    assertThat(rows.get(2)[f]).isEqualTo("2");
    assertThat(rows.get(3)[cols.indexOf("sustained_per_s")]).isEqualTo("1000");
    assertThat(rows.get(3)[cols.indexOf("placed_pct_of_sustained")]).isEqualTo("85.0");
  }

  private BenchCommand parse(String... args) {
    CommandLine cl = LocusCli.commandLine();
    String[] all = new String[args.length + 2];
    all[0] = "bench";
    System.arraycopy(args, 0, all, 1, args.length);
    all[all.length - 1] = "--out=" + tmp.resolve("out");
    cl.parseArgs(all);
    return cl.getSubcommands().get("bench").getCommand();
  }

  @Test
  void aTypoGetsASuggestion() {
    Run r = run("--polcy", "FA");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--polcy").contains("--policy");
  }
}
