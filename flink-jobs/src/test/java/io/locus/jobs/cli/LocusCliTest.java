package io.locus.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.jobs.SchedulerJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A bad argument says what is wrong and how to fix it, and nothing starts. */
class LocusCliTest {
  private record Run(int code, String err) {}

  private static Run run(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    int code = cl.execute(args);
    return new Run(code, err.toString());
  }

  @Test
  void unknownPolicyIsRejectedWithTheValidOnes() {
    Run r = run("demo", "--policy", "FA,BOGUS");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("unknown policy 'BOGUS'").contains("MCH")
        .contains("locus demo --help");
  }

  @Test
  void nonPositiveCountsAreRejected() {
    Run r = run("demo", "--tasks", "0", "--nodes", "-1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--tasks must be ≥ 1").contains("--nodes must be between 1 and 1000");
  }

  @Test
  void badDeliveryModeListsTheValidValues() {
    Run r = run("demo", "--delivery", "maybe-once");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("exactly-once").contains("at-least-once");
  }

  @Test
  void misspelledOptionGetsASuggestion() {
    Run r = run("demo", "--taks", "10");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--taks").contains("--tasks");
  }

  @Test
  void missingCommandPointsToHelp() {
    Run r = run();
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("locus demo");
  }

  @Test
  void runParsesIntoJobOptions() {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092", "--policy", "gcc", "--theta",
        "0.8", "--pool-policy", "batch=MCH", "--delivery", "exactly-once", "--no-create-topics");
    SchedulerJob.Options o = cmd.options();
    assertThat(o.delivery()).isEqualTo(DeliveryMode.EXACTLY_ONCE);
    assertThat(o.scheduler().policyFor("x").name()).isEqualTo("GCC");
    assertThat(o.scheduler().policyFor("x").params()).containsEntry("theta", "0.8");
    assertThat(o.scheduler().policyFor("batch").name()).isEqualTo("MCH");
    assertThat(cmd.createTopics).isFalse();
  }

  @Test
  void runTakesASplitPolicyForAPoolWithItsParameters() {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092", "--pool-policy",
        "cern=out-of-order", "--pool-policy", "atlas=ADAPTIVE_DELAY", "--split-param",
        "tCpu=0.002", "--split-param", "cern:dataset=lhcb", "--split-param",
        "atlas:lmaxTable=0:1.0,1d:1.5");
    SchedulerJob.Options o = cmd.options();
    assertThat(o.scheduler().policyFor("cern").name()).isEqualTo("OUT_OF_ORDER");
    assertThat(o.scheduler().policyFor("cern").params()).containsOnly(
        Map.entry("tCpu", "0.002"), Map.entry("dataset", "lhcb"));
    assertThat(o.scheduler().policyFor("atlas").params()).containsOnly(
        Map.entry("tCpu", "0.002"), Map.entry("lmaxTable", "0:1.0,1d:1.5"));
    assertThat(o.scheduler().policyFor("other").name()).isEqualTo("MCH");
  }

  @Test
  void runNamesABadSplitParameter() {
    Run r = run("run", "--bootstrap-servers", "k:9092", "--pool-policy", "cern=OUT_OF_ORDER",
        "--split-param", "tTape=fast");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--split-param").contains("'tTape'").contains("fast");
    Run unknown = run("run", "--bootstrap-servers", "k:9092", "--pool-policy", "cern=DELAYED",
        "--split-param", "speed=2");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("unknown parameter 'speed'").contains("timeScale");
    Run policy = run("run", "--bootstrap-servers", "k:9092", "--policy", "OUT_OF_ODER");
    assertThat(policy.code()).isEqualTo(2);
    assertThat(policy.err()).contains("unknown policy 'OUT_OF_ODER'").contains("OUT_OF_ORDER");
  }

  @Test
  void demoSaysSplitPoliciesNeedEventRangeJobs() {
    Run r = run("demo", "--policy", "out_of_order");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("event-range jobs").contains("--pool-policy");
  }

  @Test
  void runTakesDynamicProvisioning() {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092", "--provisioning", "dynamic",
        "--max-nodes", "32", "--acquisition", "exponential", "--release", "centralized-empty");
    var p = cmd.options().scheduler().provisioningFor("any");
    assertThat(p.dynamic()).isTrue();
    assertThat(p.maxNodes()).isEqualTo(32);
    assertThat(p.acquisition().name()).isEqualTo("EXPONENTIAL");
    assertThat(p.release().name()).isEqualTo("CENTRALIZED_EMPTY");
  }

  @Test
  void runRejectsAnUnknownAcquisitionStrategy() {
    Run r = run("run", "--bootstrap-servers", "k:9092", "--provisioning", "dynamic",
        "--acquisition", "greedy");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--acquisition must be one-at-a-time");
  }

  @Test
  void runRejectsAnUnknownStateBackend() {
    Run r = run("run", "--bootstrap-servers", "k:9092", "--state-backend", "memory");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("state backend must be 'rocksdb' or 'hashmap'");
  }

  @Test
  void theAgentIsASubcommandAndChecksItsConfig(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path cfg = dir.resolve("agent.yaml");
    java.nio.file.Files.writeString(cfg, "pool: p\nnode-id: n1\nno-such-key: 1\n");
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    Run r;
    try {
      System.setErr(new java.io.PrintStream(captured, true));
      r = run("agent", "real", "--config", cfg.toString(), "--check");
    } finally {
      System.setErr(saved);
    }
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err() + captured).contains("no-such-key");
  }
}
