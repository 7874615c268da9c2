package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code locus bench}: a bad argument says what is wrong, and nothing starts. */
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

  @Test
  void aTypoGetsASuggestion() {
    Run r = run("--polcy", "FA");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--polcy").contains("--policy");
  }
}
