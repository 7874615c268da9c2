package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.agent.AgentCli;
import io.locus.agent.real.AgentConfigFile;
import io.locus.agent.real.RealAgentConfig;
import io.locus.helm.Chart.Manifests;
import io.locus.core.policy.Policies;
import io.locus.core.policy.PolicyRegistry;
import io.locus.core.split.SplitParams;
import io.locus.cli.LocusCli;
import io.locus.operators.SchedulerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * What the chart renders is what the programs accept: the FlinkDeployment's arguments parse as
 * {@code locus run} (the job jar's entry class, io.locus.jobs.SchedulerJobMain, takes the same
 * arguments: {@code run} first), the DaemonSet's as the agent distribution's {@code real}
 * (AgentCli, what /opt/locus/bin/locus-agent runs), the topics Job's as {@code locus topics create},
 * and the agent's ConfigMap passes the agent's own strict config reader (unknown keys, types,
 * sizes, durations, templates), with the secret files it names present where the pods mount them.
 * {@link DockerfilesTest} checks that the images hold those commands at those paths.
 */
@Timeout(120)
class ChartRunsTheRealCommandsTest {
  @TempDir Path tmp;

  static List<String> texts(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }

  static Manifests render(String values, Path tmp) {
    return Chart.template(values.isEmpty() ? null : Chart.values(values), tmp);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ValueSets.MULTI_POOL, ValueSets.NO_STRIMZI_SECURED,
      ValueSets.MONITORED_EXISTING_SECRETS})
  void schedulerArgumentsParseAsLocusRun(String values) {
    JsonNode job = render(values, tmp).one("FlinkDeployment").at("/spec/job");
    String[] args = texts(job.path("args")).toArray(String[]::new);
    // What the FlinkDeployment's entry class parses: the job jar's own command line.
    assertThat(job.path("entryClass").asText()).isEqualTo(io.locus.jobs.SchedulerJobMain.class.getName());
    ParseResult parsed = io.locus.jobs.SchedulerJobMain.commandLine().parseArgs(args);
    assertThat(parsed.hasSubcommand()).isTrue();
    ParseResult run = parsed.subcommand();
    assertThat(run.commandSpec().name()).isEqualTo("run");
    assertThat(run.unmatched()).isEmpty();
    assertThat((Integer) run.matchedOptionValue("--parallelism", 1)).isEqualTo(job.path("parallelism").asInt());
    assertThat((Boolean) run.matchedOptionValue("--create-topics", true)).isFalse();

    // Each pool's policy with its parameters is one the scheduler builds (PolicySpec fails fast on
    // an unknown policy or a bad parameter, as locus run does at start).
    List<String> list = List.of(args);
    for (int i = 0; i < list.size() - 1; i++) {
      if (!list.get(i).equals("--pool-policy")) {
        continue;
      }
      String[] poolPolicy = list.get(i + 1).split("=", 2);
      Map<String, String> params = new LinkedHashMap<>();
      for (int j = 0; j < list.size() - 1; j++) {
        if (list.get(j).equals("--split-param") && list.get(j + 1).startsWith(poolPolicy[0] + ":")) {
          String[] kv = list.get(j + 1).substring(poolPolicy[0].length() + 1).split("=", 2);
          params.put(kv[0], kv[1]);
        }
      }
      if (!SplitParams.POLICIES.contains(poolPolicy[1])) {
        params.put("window", list.get(list.indexOf("--window") + 1));
        params.put("theta", list.get(list.indexOf("--theta") + 1));
      }
      var spec = new SchedulerConfig.PolicySpec(poolPolicy[1], params);
      assertThat(spec.name()).isEqualTo(poolPolicy[1]);
    }
  }

  /**
   * scheduler.maxLocalityWait and scheduler.preemptionGrace reach locus run as the values its own
   * converters give (off: NaN, no preemption); a grace that is neither a duration nor off is
   * refused by the values schema before anything renders.
   */
  @Test
  void theQueueSettingsReachLocusRunAndABadGraceIsRefused() {
    for (String values : List.of("", ValueSets.MULTI_POOL)) {
      String[] args = texts(render(values, tmp).one("FlinkDeployment").at("/spec/job/args"))
          .toArray(String[]::new);
      ParseResult run = io.locus.jobs.SchedulerJobMain.commandLine().parseArgs(args).subcommand();
      double wait = run.matchedOptionValue("--max-locality-wait", -1.0);
      double grace = run.matchedOptionValue("--preemption-grace", -1.0);
      if (values.isEmpty()) {
        assertThat(wait).isEqualTo(3.0);
        assertThat(grace).isEqualTo(30.0);
      } else {
        assertThat(wait).isZero();
        assertThat(grace).isNaN();
      }
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Chart.template(Chart.values(
        "scheduler: {preemptionGrace: never}"), tmp)).hasMessageContaining("preemptionGrace");
  }

  /** Without Strimzi, the topics hook Job's command is one `locus topics create` accepts. */
  @Test
  void theTopicsJobArgumentsParseAsLocusTopicsCreate() {
    Manifests m = Chart.templateWithHooks(Chart.values(ValueSets.NO_STRIMZI_SECURED), tmp);
    JsonNode container = m.one("Job").at("/spec/template/spec/containers/0");
    assertThat(texts(container.path("command"))).containsExactly("/opt/locus/bin/locus");
    String[] args = texts(container.path("args")).toArray(String[]::new);
    ParseResult parsed = new CommandLine(new LocusCli()).parseArgs(args);
    ParseResult topics = parsed.subcommand();
    assertThat(topics.commandSpec().name()).isEqualTo("topics");
    ParseResult create = topics.subcommand();
    assertThat(create.commandSpec().name()).isEqualTo("create");
    assertThat(create.unmatched()).isEmpty();
    assertThat((String) create.matchedOptionValue("--bootstrap-servers", null)).isNotBlank();
  }

  /**
   * The values schema offers exactly the registry's policies, in its order (a JSON schema cannot
   * read Java, so this test is what keeps it equal); the chart knows which are split.
   */
  @Test
  void theSchemasPoliciesAreTheSchedulersAndSplitOnesTakeParams() throws IOException {
    JsonNode schema = Chart.JSON.readTree(Chart.dir().resolve("values.schema.json").toFile());
    List<String> offered = texts(schema.at("/properties/pools/items/properties/policy/enum"));
    List<String> known = new ArrayList<>();
    new PolicyRegistry.AllNames().forEach(known::add);
    assertThat(offered).containsExactlyElementsOf(known);
    assertThat(texts(schema.at("/properties/scheduler/properties/defaultPolicy/enum")))
        .containsExactlyElementsOf(known);
    // A split pool with parameters renders; a file pool with parameters is refused.
    for (String split : SplitParams.POLICIES) {
      Manifests m = Chart.template(Chart.values(
          "pools: [{name: p, policy: " + split + ", params: {cacheGb: 10}}]"), tmp);
      assertThat(texts(m.one("FlinkDeployment").at("/spec/job/args"))).contains("p:cacheGb=10");
    }
    for (String file : Policies.NAMES) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> Chart.template(Chart.values(
          "pools: [{name: p, policy: " + file + ", params: {window: 10}}]"), tmp))
          .hasMessageContaining("takes none per pool");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ValueSets.MULTI_POOL, ValueSets.NO_STRIMZI_SECURED,
      ValueSets.MONITORED_EXISTING_SECRETS})
  void agentConfigAndArgumentsAreAcceptedByTheAgent(String values) throws IOException {
    Manifests m = render(values, tmp);
    JsonNode container = m.one("DaemonSet").at("/spec/template/spec/containers/0");
    // The agent image's launcher runs AgentCli (the jar's main class) with these arguments.
    assertThat(texts(container.path("command"))).containsExactly("/opt/locus/bin/locus-agent");
    List<String> args = texts(container.path("args"));
    ParseResult parsed = new CommandLine(new AgentCli()).parseArgs(args.toArray(String[]::new));
    assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("real");
    assertThat(parsed.subcommand().unmatched()).isEmpty();
    assertThat((Path) parsed.subcommand().matchedOptionValue("--config", null))
        .isEqualTo(Path.of("/etc/locus/agent.yaml"));

    // The files the pods mount, at the same paths under a temporary root.
    Path root = tmp.resolve("root");
    Files.createDirectories(root.resolve("etc/locus/kafka"));
    Files.writeString(root.resolve("etc/locus/kafka/client.properties"), "security.protocol=PLAINTEXT\n");
    Files.createDirectories(root.resolve("etc/locus/secrets/decision"));
    Files.writeString(root.resolve("etc/locus/secrets/decision/decision.secret"), "a-decision-secret\n");
    Files.createDirectories(root.resolve("etc/locus/secrets/node-key"));
    Files.writeString(root.resolve("etc/locus/secrets/node-key/node.key"),
        HexFormat.of().formatHex(new byte[32]).replace('0', '7') + "\n");
    // As the pods mount them (defaultMode 0400): only the owner reads a secret.
    for (String f : List.of("kafka/client.properties", "secrets/decision/decision.secret",
        "secrets/node-key/node.key")) {
      Files.setPosixFilePermissions(root.resolve("etc/locus").resolve(f),
          java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }
    String text = m.named("ConfigMap", "prod-locus-agent").at("/data/agent.yaml").asText()
        .replace("/etc/locus/", root + "/etc/locus/");

    AgentConfigFile file = AgentConfigFile.parse(text, root.resolve("etc/locus"), "worker-1");
    RealAgentConfig agent = file.agent();
    JsonNode cfg = Chart.YAML.readTree(text);
    assertThat(agent.nodeId()).isEqualTo("worker-1");
    assertThat(agent.pool()).isEqualTo(cfg.path("pool").asText());
    assertThat(agent.agent().slots()).isEqualTo(cfg.path("slots").asInt());
    assertThat(agent.templates().keySet()).containsExactlyInAnyOrderElementsOf(
        () -> cfg.path("templates").fieldNames());
    assertThat(agent.defaultTemplate()).isEqualTo(cfg.path("default-template").asText());
    assertThat(file.bootstrapServers()).isEqualTo(cfg.at("/kafka/bootstrap-servers").asText());
    assertThat(file.createTopics()).isFalse();
    assertThat(agent.signer() != null).isEqualTo(cfg.at("/security/secret-file").isTextual());
    assertThat(agent.nodeSigner() != null).isEqualTo(cfg.at("/security/node-key-file").isTextual());
    assertThat(file.clientOverrides().isEmpty()).isEqualTo(!cfg.at("/kafka/properties-file").isTextual());
  }
}
