package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.LocusCli;
import io.locus.connectors.DeliveryMode;
import io.locus.dashboard.Dashboard;
import io.locus.dashboard.Snapshot;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DeadLetter;
import io.locus.testkit.Await;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, "what operators saw": the dashboard and {@code locus status} show nodes as the
 * scheduler judged them (its verdicts on node-status), and an agent the scheduler refuses says so.
 *
 * <p>The whole system: an in-JVM broker, the scheduler job on a MiniCluster with RocksDB
 * (exactly-once, transactional sinks), two simulated agents, and the agent distribution ({@code
 * java -jar locus-agent.jar real}) as child processes: the real agent, then an impostor started
 * from a copy of its configuration (same node id, its own directories, so another agent
 * instance). The impostor is refused, logs it at once and answers /health 503 with the reason;
 * when it stops, its LEAVE is refused too, and status and the dashboard still show the real node
 * registered. A drained node shows draining; the real agent killed with SIGKILL shows lost.
 *
 * <p>Needs the agent jar (node-agent's package phase), as {@link AgentDistributionSystemTest}.
 */
@Tag("integration")
@Timeout(300)
class NodeVerdictsSystemTest {
  private static final String POOL = "e2e-verdicts";
  private static final String REAL = "verdict-node";
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void anImpostorIsRefusedAndTheViewsShowTheSchedulersVerdicts() throws Exception {
    Path jar = AgentDistributionSystemTest.agentJar();
    SchedulerConfig.PolicySpec fa = new SchedulerConfig.PolicySpec("FA", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(fa, Map.of(POOL, fa), 1000, 3)
        .withPools(Set.of(POOL)).withNodeTimeoutMs(5000);
    Path logs = Files.createDirectories(Path.of("target", "child-logs").toAbsolutePath());
    Path realLog = logs.resolve("verdicts-real.log");
    Path copyLog = logs.resolve("verdicts-impostor.log");
    List<Process> children = new ArrayList<>();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.EXACTLY_ONCE,
            Duration.ofSeconds(1));
        AgentHost<?> sims = simulatedAgents(locus.bootstrapServers());
        Dashboard dashboard = Dashboard.start(ClientConfigs.base(locus.bootstrapServers()),
            Dashboard.Options.defaults())) {
      String b = locus.bootstrapServers();
      Path storage = Files.createDirectories(dir.resolve("storage"));
      Path realYaml = dir.resolve("real.yaml");
      Files.writeString(realYaml, yaml(dir.resolve("real"), storage, b));
      Process real = agent(jar, realYaml, realLog);
      children.add(real);
      awaitLine(real, realLog, "locus agent real: node " + REAL + " of pool " + POOL
          + " registered by the scheduler");
      assertThat(health(realLog)).isEqualTo("200 ok");

      // A copy of the real agent's configuration: the same node id, another agent instance.
      Path copyYaml = dir.resolve("copy.yaml");
      Files.writeString(copyYaml, yaml(dir.resolve("copy"), storage, b));
      Process copy = agent(jar, copyYaml, copyLog);
      children.add(copy);
      awaitLine(copy, copyLog, "the scheduler REFUSED this agent's registration");
      String copyOut = read(copyLog);
      assertThat(copyOut).contains("registration sent to Kafka at " + b
              + ", waiting for the scheduler")
          .contains("is owned by live agent instance")
          .doesNotContain("registered by the scheduler");
      assertThat(count(copyOut, "REFUSED this agent's registration")).as("one clear line")
          .isEqualTo(1);
      assertThat(health(copyLog)).startsWith("503 registration refused by the scheduler:")
          .contains("is owned by live agent instance").contains("[forged]");

      // The impostor stops: it sends LEAVE, which the scheduler refuses as forged.
      copy.destroy();
      assertThat(copy.waitFor(60, TimeUnit.SECONDS)).isTrue();
      WholeSystem.await(WAIT, "the impostor's LEAVE dead-lettered as forged",
          () -> deadLetters(b).stream().anyMatch(d -> d.getCode().equals("forged")
              && d.getReason().startsWith("LEAVE from node '" + REAL + "'")));
      // Whatever is in node-reports, both views show the real node registered.
      WholeSystem.await(WAIT, "status shows three nodes registered",
          () -> status(b).contains("nodes: 3 registered (0 of them draining), 0 lost, 0 left"));
      assertThat(status(b)).contains("registrations refused: ")
          .contains("node " + REAL + ", agent instance ");
      // the dashboard has read every node report written so far, the impostor's LEAVE among them
      long reports = recordsIn(b, Topics.NODE_REPORTS.name());
      WholeSystem.await(WAIT, "the dashboard read " + reports + " node reports",
          () -> dashboard.state().snapshot(System.currentTimeMillis()).topics().read()
              .getOrDefault(Topics.NODE_REPORTS.name(), 0L) >= reports);
      awaitNode(dashboard, REAL, "alive");

      // A scheduler-side drain.
      String drained = sims.nodeIds().get(1);
      WholeSystem.CliRun drain = WholeSystem.control(b, POOL, "drain", drained);
      assertThat(drain.code()).as(drain.err()).isZero();
      WholeSystem.await(WAIT, "status shows the drain",
          () -> status(b).contains("draining: " + drained));
      awaitNode(dashboard, drained, "draining");

      // The real agent dies without a word: the scheduler declares it lost.
      real.destroyForcibly();
      assertThat(real.waitFor(30, TimeUnit.SECONDS)).isTrue();
      WholeSystem.await(WAIT, "status shows the lost node", () -> {
        String s = status(b);
        return s.contains(", 1 lost, 0 left") && s.contains("lost (in the last 24 h): " + REAL
            + " (not heard from since");
      });
      awaitNode(dashboard, REAL, "lost");
      locus.checkJobAlive();
    } catch (AssertionError | Exception e) {
      System.out.println("real agent log:\n" + tail(realLog) + "\nimpostor log:\n"
          + tail(copyLog));
      throw e;
    } finally {
      for (Process p : children) {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** Two simulated agents heartbeating every 500 ms: they keep the liveness clock moving. */
  private static AgentHost<?> simulatedAgents(String bootstrap) {
    AgentConfig template = AgentConfig.builder(POOL).slots(1).heartbeatMs(500)
        .cacheCapacityBytes(1_000_000_000L).timeScale(0.01).build();
    return AgentHost.start(HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds(POOL + "-node-", 2)).readCommitted(true)
        .ensureTopics(false).build(), new SimulatedAgents(template));
  }

  private static Process agent(Path jar, Path yaml, Path log) throws IOException {
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-jar", jar.toString(), "real", "--config", yaml.toString(),
        "--stats-interval", "PT0S")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** The agent's config (node-agent/README.md); heartbeats every 500 ms. */
  private static String yaml(Path data, Path storage, String bootstrap) {
    return RealAgentYaml.of(POOL, REAL, data, storage, bootstrap, true, null,
        java.util.List.of("sha256sum", "{inputs}"));
  }

  private static void awaitLine(Process p, Path log, String line) {
    Await.atMost(WAIT).pollEvery(Duration.ofMillis(100)).until("'" + line + "' in " + log, () -> {
      if (read(log).contains(line)) {
        return true;
      }
      assertThat(p.isAlive()).as("the agent exited before '%s':%n%s", line, tail(log)).isTrue();
      return false;
    });
  }

  /** GET /health of the agent whose log names its address: "CODE body". */
  private static String health(Path log) throws Exception {
    Matcher m = Pattern.compile("/health at (http://[^;\\s]+);").matcher(read(log));
    assertThat(m.find()).as("the agent's address in its log").isTrue();
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(m.group(1) + "/health")).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    return r.statusCode() + " " + r.body().strip();
  }

  /** {@code locus status --pool POOL}, in this JVM. */
  private static String status(String bootstrap) {
    var cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(new StringWriter()));
    int code = cl.execute("status", "--bootstrap-servers", bootstrap, "--pool", POOL);
    return code + ": " + out;
  }

  private static void awaitNode(Dashboard d, String node, String state) {
    WholeSystem.await(WAIT, "the dashboard shows " + node + " " + state, () -> {
      Snapshot.Node n = node(d, node);
      return n != null && n.state().equals(state);
    });
  }

  private static Snapshot.Node node(Dashboard d, String node) {
    return d.state().snapshot(System.currentTimeMillis()).nodes().stream()
        .filter(n -> n.node().equals(node)).findFirst().orElse(null);
  }

  private static List<DeadLetter> deadLetters(String bootstrap) {
    List<DeadLetter> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, true))) {
      TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long end = c.endOffsets(List.of(tp)).get(tp);
      while (c.position(tp) < end) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          out.add(Topics.DEAD_LETTERS.decode(r.value()));
        }
      }
    }
    return out;
  }

  /** Records written to {@code topic} so far (a fresh broker: every partition starts at 0). */
  private static long recordsIn(String bootstrap, String topic) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false))) {
      List<TopicPartition> tps = c.partitionsFor(topic).stream()
          .map(i -> new TopicPartition(topic, i.partition())).toList();
      return c.endOffsets(tps).values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  private static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static String tail(Path log) {
    String s = read(log);
    return s.substring(Math.max(0, s.length() - 4000));
  }
}
