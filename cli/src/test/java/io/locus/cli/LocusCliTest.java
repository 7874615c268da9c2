package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.connectors.DeliveryMode;
import io.locus.jobs.SchedulerJob;
import io.locus.jobs.options.PolicyOptions;
import io.locus.jobs.run.RunCommand;
import io.locus.operators.SchedulerConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
  void everyCommandsHelpFormatsWithoutAPicocliWarning() throws Exception {
    // picocli formats descriptions with String.format: a bare '%' garbles the help and warns
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.err;
    System.setErr(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      CommandLine cl = LocusCli.commandLine();
      for (CommandLine sub : cl.getSubcommands().values()) {
        assertThat(sub.getUsageMessage()).isNotBlank();
      }
    } finally {
      System.setErr(old);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
  }

  @Test
  void aNegativeQueueDepthIsRejected() {
    Run r = run("demo", "--queue-depth", "-1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--queue-depth must be between 0 and 1024");
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
  void runTakesTheTrustSettingsAndAppliesTheKafkaPropertiesFile(@TempDir Path dir)
      throws Exception {
    Path nodeSecret = Files.writeString(dir.resolve("node.secret"), "cluster secret\n");
    Path decisionSecret = Files.writeString(dir.resolve("decision.secret"), "pool secret");
    Path kafka = Files.writeString(dir.resolve("kafka.properties"),
        "client.id=locus-test\nrequest.timeout.ms=12345\n");
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092", "--pools", "a,b",
        "--node-timeout", "PT5S", "--max-clock-jump", "PT1H", "--job-retention", "P1D",
        "--node-secret-file", nodeSecret.toString(), "--decision-secret-file",
        decisionSecret.toString(), "--kafka-properties", kafka.toString());
    SchedulerJob.Options o = cmd.options();
    SchedulerConfig s = o.scheduler();
    assertThat(s.pools()).containsExactlyInAnyOrder("a", "b");
    assertThat(s.nodeTimeoutMs()).isEqualTo(5_000);
    assertThat(s.maxClockJumpMs()).isEqualTo(3_600_000);
    assertThat(s.jobRetentionMs()).isEqualTo(86_400_000);
    assertThat(new String(s.nodeSecret(), StandardCharsets.UTF_8)).isEqualTo("cluster secret");
    assertThat(new String(s.decisionSecret(), StandardCharsets.UTF_8)).isEqualTo("pool secret");
    // The file's settings reach the job (they were read and then dropped before).
    assertThat(o.kafkaOverrides()).containsEntry("request.timeout.ms", "12345");
  }

  @Test
  void runDeliversExactlyOnceUnlessToldOtherwise() {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092");
    assertThat(cmd.options().delivery()).isEqualTo(DeliveryMode.EXACTLY_ONCE);
    RunCommand fast = new RunCommand();
    new CommandLine(fast).parseArgs("--bootstrap-servers", "k:9092", "--delivery",
        "at-least-once");
    assertThat(fast.options().delivery()).isEqualTo(DeliveryMode.AT_LEAST_ONCE);
  }

  @Test
  void runRefusesANonPositiveNodeTimeout() {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092", "--node-timeout", "PT0S");
    assertThatThrownBy(cmd::options).hasMessageContaining("--node-timeout");
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
  void demoRunsSplitPoliciesOnSimulatedAgentsOnly() {
    Run r = run("demo", "--policy", "MCH,out_of_order", "--real-agents");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--real-agents runs file policies only")
        .contains("drop --real-agents").contains("--pool-policy POOL=OUT_OF_ORDER")
        .contains("tasks.event-batch");
  }

  @Test
  void demoRejectsFileOnlyFlagsWhenEveryPolicyIsASplitPolicy() {
    Run r = run("demo", "--policy", "OUT_OF_ORDER,DELAYED", "--files", "10", "--window", "4");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--files applies to file policies only")
        .contains("--window applies to file policies only").contains("--split-param");
    Run jobs = run("demo", "--policy", "FA", "--jobs", "5");
    assertThat(jobs.code()).isEqualTo(2);
    assertThat(jobs.err()).contains("--jobs applies to split policies only").contains("--tasks");
    Run count = run("demo", "--policy", "FARM", "--jobs", "0");
    assertThat(count.code()).isEqualTo(2);
    assertThat(count.err()).contains("--jobs must be between 1 and 10000");
  }

  @Test
  void demoNamesABadSplitParameterAndAConflictingTimeScale() {
    Run r = run("demo", "--policy", "OUT_OF_ORDER", "--split-param", "min=few");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--split-param (OUT_OF_ORDER)").contains("'min'")
        .contains("few");
    Run ts = run("demo", "--policy", "JOB_SPLITTING", "--split-param", "timeScale=1");
    assertThat(ts.code()).isEqualTo(2);
    assertThat(ts.err()).contains("timeScale=1").contains("--time-scale 1 instead");
    // a parameter that clashes with a demo default says which default
    Run stripe = run("demo", "--policy", "DELAYED", "--split-param", "min=30");
    assertThat(stripe.code()).isEqualTo(2);
    assertThat(stripe.err()).contains("stripe must be >= 2 * min (60), got 50")
        .contains("the demo's defaults for DELAYED").contains("stripe=50");
    // a pool prefix that names no split pool of the run would be ignored: it is refused
    Run prefix = run("demo", "--policy", "OUT_OF_ORDER", "--split-param", "OUT_OF_ORDER:min=30");
    assertThat(prefix.code()).isEqualTo(2);
    assertThat(prefix.err()).contains("no split pool named 'OUT_OF_ORDER'")
        .contains("demo-out_of_order");
    Run twice = run("demo", "--policy", "out-of-order,OUT_OF_ORDER");
    assertThat(twice.code()).isEqualTo(2);
    assertThat(twice.err()).contains("--policy lists a policy twice");
  }

  /**
   * --window and --theta reach only the policies that take them: EFT, MET and the other
   * cost-model policies have no theta, and `locus run/demo --policy EFT` was refused for it.
   */
  @Test
  void filePoliciesGetOnlyTheParametersTheyTake() {
    PolicyOptions o = new PolicyOptions();
    assertThat(o.spec("EFT").params()).containsKey("window").doesNotContainKey("theta");
    assertThat(o.spec("met").params()).containsKey("window").doesNotContainKey("theta");
    assertThat(o.spec("GCC").params()).containsKeys("window", "theta");
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs("--bootstrap-servers", "k:9092", "--policy", "EFT",
        "--shadow-policy", "p=MET,GCC");
    var cfg = cmd.options().scheduler();
    assertThat(cfg.policyFor("p").name()).isEqualTo("EFT");
    assertThat(cfg.shadowsFor("p")).extracting(SchedulerConfig.PolicySpec::name)
        .containsExactly("MET", "GCC");
  }

  @Test
  void demoSplitParametersAreTheScaledDefaultsUnderTheUsers() {
    PolicyOptions o = new PolicyOptions();
    var delayed = DemoCommand.splitSpec(o, "delayed", 0.02);
    assertThat(delayed.name()).isEqualTo("DELAYED");
    assertThat(delayed.params()).containsEntry("timeScale", "0.02")
        .containsEntry("period", "1728").containsEntry("stripe", "50")
        .containsEntry("cacheEvents", "1667").containsEntry("dataset", "demo-events");
    // ADAPTIVE_DELAY needs a table: the demo supplies one, so the policy runs without flags
    assertThat(DemoCommand.splitSpec(o, "ADAPTIVE_DELAY", 0.02).params())
        .containsKey("lmaxTable");
    o.splitParams.put("min", "20");
    o.splitParams.put("cacheGb", "2");
    o.splitParams.put("demo-out_of_order:starve", "1h");
    o.splitParams.put("demo-farm:starve", "9h");
    var ooo = DemoCommand.splitSpec(o, "out_of_order", 0.5);
    assertThat(ooo.params()).containsEntry("min", "20").containsEntry("starve", "1h")
        .containsEntry("timeScale", "0.5").containsEntry("cacheGb", "2")
        .doesNotContainKey("cacheEvents");
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

  @Test
  void freshAndFromSavepointExcludeEachOther() {
    Run r = run("run", "--bootstrap-servers", "localhost:1", "--fresh", "--from-savepoint", "/x");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--fresh and --from-savepoint exclude each other");
  }

  @Test
  void aMissingSavepointIsRefusedBeforeAnythingStarts() {
    Run r = run("run", "--bootstrap-servers", "localhost:1", "--no-create-topics",
        "--from-savepoint", "/no/such/savepoint");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no savepoint at /no/such/savepoint");
  }

  @Test
  void savepointWithoutARunningJobSaysWhereItLooked() {
    Run r = run("savepoint", "--rest-url", "http://127.0.0.1:1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no Flink REST API at http://127.0.0.1:1");
  }

  @Test
  void theDemoRefusesABadMetricsPortBeforeStartingAnything() {
    CommandLine cl = LocusCli.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("demo", "--metrics-port", "nope");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--metrics-port must be a port (1-65535) or off, got 'nope'");
  }
}
