package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(30)
class AgentCliTest {
  @Test
  void simOptionsBecomeAHostConfig() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "batch",
        "--nodes", "3", "--node-prefix", "w", "--time-scale", "0.01", "--isolation", "read_uncommitted", "--no-create-topics",
        "--from", "earliest", "--cache-bytes", "2000000000");
    HostConfig cfg = sim.hostConfig();
    AgentConfig agent = sim.agentConfig();

    assertThat(cfg.bootstrapServers()).isEqualTo("k:9092");
    assertThat(agent.pool()).isEqualTo("batch");
    assertThat(cfg.nodeIds()).containsExactly("w00", "w01", "w02");
    assertThat(cfg.readCommitted()).isFalse();
    assertThat(cfg.ensureTopics()).isFalse();
    assertThat(cfg.startFrom()).isEqualTo(HostConfig.StartFrom.EARLIEST);
    assertThat(agent.timeScale()).isEqualTo(0.01);
    assertThat(agent.cacheCapacityBytes()).isEqualTo(2_000_000_000L);
    assertThat(agent.slots()).isEqualTo(2);
    assertThat(agent.storageBandwidth()).isEqualTo(125e6);
  }

  @Test
  void simWithAStateDirIsTheSameInstanceAfterARestartAndSignsWithItsNodeKey(@TempDir Path tmp)
      throws Exception {
    Path secret = java.nio.file.Files.writeString(tmp.resolve("cluster.secret"), "cs\n");
    String[] args = {"--bootstrap-servers", "k:9092", "--pool", "p", "--state-dir",
        tmp.resolve("state").toString(), "--cluster-secret-file", secret.toString()};
    AgentCli.Sim first = new AgentCli.Sim();
    new CommandLine(first).parseArgs(args);
    AgentCli.Sim restarted = new AgentCli.Sim();
    new CommandLine(restarted).parseArgs(args);
    AgentIdentity a = first.identities().apply("n1");
    assertThat(restarted.identities().apply("n1").instanceId()).isEqualTo(a.instanceId());
    assertThat(first.identities().apply("n2").instanceId()).isNotEqualTo(a.instanceId());
    io.locus.schemas.NodeReport r = io.locus.schemas.NodeReport.newBuilder().setPool("p")
        .setNode("n1").setType(io.locus.schemas.NodeReportType.HEARTBEAT).setTimeMs(1).build();
    assertThat(new io.locus.schemas.auth.NodeKeys("cs".getBytes(
        java.nio.charset.StandardCharsets.UTF_8)).signer("n1")
        .verify(a.nodeSigner().sign(r))).isTrue();

    AgentCli.Sim plain = new AgentCli.Sim();
    new CommandLine(plain).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p");
    assertThat(plain.identities().apply("n1").instanceId())
        .isNotEqualTo(plain.identities().apply("n1").instanceId());
    assertThat(plain.identities().apply("n1").nodeSigner()).isNull();
  }

  @Test
  void simQueueDepthAndPreloadAreCheckedAndReachTheAgents() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p",
        "--queue-depth", "3", "--preload-files", "4", "--preload-bytes", "250",
        "--cache-bytes", "1000");
    assertThat(sim.agentConfig().queueDepth()).isEqualTo(3);
    assertThat(sim.preload()).isEqualTo(new io.locus.agent.sim.Preload(4, 250, "bench-file-"));

    AgentCli.Sim defaults = new AgentCli.Sim();
    new CommandLine(defaults).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p");
    assertThat(defaults.agentConfig().queueDepth()).isZero();
    assertThat(defaults.preload().files()).isZero();

    assertThat(simError("--queue-depth", "-1"))
        .isEqualTo("queueDepth must be 0..1024, got -1");
    assertThat(simError("--preload-files", "5", "--preload-bytes", "250", "--cache-bytes", "1000"))
        .isEqualTo("--preload-files/--preload-bytes/--preload-prefix: preload of 5 files of 250"
            + " bytes does not fit the cache of 1000 bytes");
    assertThat(simError("--preload-files", "-1"))
        .endsWith("preload files must be >= 0, got -1");
    assertThat(simError("--preload-files", "1", "--preload-bytes", "0"))
        .endsWith("preload bytes must be > 0, got 0");
    // N x B overflowing a long is still refused, not wrapped around.
    assertThat(simError("--preload-files", "4", "--preload-bytes", "4611686018427387904",
        "--cache-bytes", "1000")).contains("does not fit");
  }

  private static String simError(String... extra) {
    AgentCli.Sim sim = new AgentCli.Sim();
    String[] args = new String[extra.length + 4];
    System.arraycopy(new String[] {"--bootstrap-servers", "k:9092", "--pool", "p"}, 0, args, 0,
        4);
    System.arraycopy(extra, 0, args, 4, extra.length);
    new CommandLine(sim).parseArgs(args);
    try {
      sim.agentConfig();
      sim.preload();
    } catch (CommandLine.ParameterException e) {
      return e.getMessage();
    }
    throw new AssertionError("no error for " + String.join(" ", extra));
  }

  @Test
  void createTopicsCanBeTurnedOnExplicitly() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p",
        "--create-topics");
    assertThat(sim.hostConfig().ensureTopics()).isTrue();
  }

  @Test
  void defaultsAreSixteenNodesReadCommittedFromLatest() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p");
    HostConfig cfg = sim.hostConfig();

    assertThat(cfg.nodeIds()).hasSize(16).startsWith("node-00").endsWith("node-15");
    assertThat(cfg.readCommitted()).isTrue();
    assertThat(cfg.ensureTopics()).isTrue();
    assertThat(cfg.startFrom()).isEqualTo(HostConfig.StartFrom.LATEST);
  }

  @Test
  void realReadsItsConfigFileAndTheCommandLineOverridesIt(@TempDir Path tmp) throws Exception {
    Path cfg = Files.writeString(tmp.resolve("agent.yaml"), String.join("\n",
        "pool: batch",
        "node-id: from-file",
        "data-dir: data",
        "storage: {root: 'file:///data/pool'}",
        "kafka: {bootstrap-servers: 'k:9092', start-from: earliest, read-committed: false}",
        "templates: {sum: {command: [sha256sum, '{inputs}']}}",
        ""));
    AgentCli.Real real = new AgentCli.Real();
    new CommandLine(real).parseArgs("--config", cfg.toString(), "--node-id", "n7");
    HostConfig h = real.hostConfig();
    assertThat(h.bootstrapServers()).isEqualTo("k:9092");
    assertThat(h.nodeIds()).containsExactly("n7");
    assertThat(real.agentConfig().pool()).isEqualTo("batch");
    assertThat(h.readCommitted()).isFalse();
    assertThat(h.startFrom()).isEqualTo(HostConfig.StartFrom.EARLIEST);
    assertThat(real.agentConfig().cacheDir()).isEqualTo(tmp.resolve("data/cache"));

    AgentCli.Real other = new AgentCli.Real();
    new CommandLine(other).parseArgs("--config", cfg.toString(), "--bootstrap-servers", "x:1");
    assertThat(other.hostConfig().bootstrapServers()).isEqualTo("x:1");
    assertThat(other.hostConfig().nodeIds()).containsExactly("from-file");
  }

  @Test
  void realCheckValidatesAndABadConfigExitsWithTwo(@TempDir Path tmp) throws Exception {
    Path good = Files.writeString(tmp.resolve("good.yaml"),
        "pool: p\nnode-id: n\ndata-dir: d\n");
    Path bad = Files.writeString(tmp.resolve("bad.yaml"), "pool: p\nnode-id: n\nslotz: 3\n");
    assertThat(new CommandLine(new AgentCli()).execute("real", "--config", good.toString(),
        "--check")).isZero();
    PrintStream old = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(new AgentCli()).execute("real", "--config", bad.toString()))
          .isEqualTo(2);
    } finally {
      System.setErr(old);
    }
    assertThat(buf.toString(StandardCharsets.UTF_8))
        .contains("unknown key [slotz]");
    assertThat(new CommandLine(new AgentCli()).execute("real", "--config",
        tmp.resolve("missing.yaml").toString())).isEqualTo(2);
  }

  /** What `real --check` says of {@code config}: exit code and stderr. */
  private static String check(Path config, int expectedExit) {
    PrintStream old = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(new AgentCli()).execute("real", "--config", config.toString(),
          "--check")).isEqualTo(expectedExit);
    } finally {
      System.setErr(old);
    }
    return buf.toString(StandardCharsets.UTF_8).strip();
  }

  @Test
  void realCheckNoLongerPassesWhatANewUserGotWrong(@TempDir Path tmp) throws Exception {
    Files.createDirectory(tmp.resolve("storage"));
    String head = "pool: p\nnode-id: n\ndata-dir: d\n";
    Path good = Files.writeString(tmp.resolve("good.yaml"),
        head + "storage: {root: storage}\ncache: {quota: 12MB}\n");
    assertThat(check(good, 0)).isEmpty();

    Path eviction = Files.writeString(tmp.resolve("eviction.yaml"), head + "eviction: BOGUS\n");
    assertThat(check(eviction, 2)).isEqualTo("locus agent real: " + eviction + ":4: eviction: 'BOGUS'"
        + " is not an eviction policy an agent can use; use one of [LRU, FIFO, LFU, RANDOM]");

    Path root = Files.writeString(tmp.resolve("root.yaml"), head + "storage: {root: nowhere}\n");
    assertThat(check(root, 2)).isEqualTo("locus agent real: " + root + ":4: storage.root: "
        + tmp.resolve("nowhere") + " does not exist");

    Path twice = Files.writeString(tmp.resolve("twice.yaml"), head + "slots: 3\nslots: 4\n");
    assertThat(check(twice, 2)).isEqualTo("locus agent real: " + twice
        + ":5: slots: given twice (first at line 4); a key may appear once");

    Path bits = Files.writeString(tmp.resolve("bits.yaml"), head + "cache: {quota: 12Mb}\n");
    assertThat(check(bits, 2)).startsWith("locus agent real: " + bits + ":4: cache.quota: not a size:"
        + " '12Mb': 'Mb' is not a unit; units are case-sensitive; a lowercase b means bits:"
        + " did you mean MB?");
  }

  @Test
  void aBadStartOffsetOrNoCommandSaysWhatIsValid() {
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cl = new CommandLine(new AgentCli()).setCommandName("locus agent");
    cl.setErr(new java.io.PrintWriter(err, true));
    assertThat(cl.execute("sim", "--bootstrap-servers", "h:1", "--pool", "p", "--from", "middle"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--from must be latest or earliest, not middle")
        .doesNotContain("No enum constant");
    assertThat(cl.execute()).isEqualTo(2);
    assertThat(err.toString()).contains("Missing command: 'locus agent real'");
  }

  /**
   * Issue 21: the agent's own entry point has the durations of every Locus entry point (10s as
   * well as PT10S), and sim and real share one --stats-interval with one default.
   */
  @Test
  void statsIntervalIsOneOptionWithOneDefaultAndTakesUnits() {
    CommandLine.ParseResult sim = AgentCli.commandLine().parseArgs("sim",
        "--bootstrap-servers", "k:9092", "--pool", "p", "--stats-interval", "10s");
    assertThat(((AgentCli.Sim) sim.subcommand().commandSpec().userObject()).stats.everyMs())
        .isEqualTo(10_000);
    CommandLine.ParseResult simDefault = AgentCli.commandLine().parseArgs("sim",
        "--bootstrap-servers", "k:9092", "--pool", "p");
    CommandLine.ParseResult real = AgentCli.commandLine().parseArgs("real", "--config", "a.yaml");
    assertThat(((AgentCli.Sim) simDefault.subcommand().commandSpec().userObject()).stats
        .everyMs()).isEqualTo(30_000);
    assertThat(((AgentCli.Real) real.subcommand().commandSpec().userObject()).stats.everyMs())
        .isEqualTo(30_000);
  }
}
