package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.helm.Chart.Manifests;
import io.locus.kafka.Topics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code helm template}: every value reaches its field, with the defaults and without them. */
@Timeout(60)
class ChartTemplateTest {
  @TempDir Path tmp;

  static List<String> texts(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }

  static JsonNode agentConfig(Manifests m) throws IOException {
    return Chart.YAML.readTree(m.named("ConfigMap", "prod-locus-agent").at("/data/agent.yaml").asText());
  }

  static JsonNode agentContainer(Manifests m) {
    return m.one("DaemonSet").at("/spec/template/spec/containers/0");
  }

  static JsonNode volume(JsonNode podSpec, String name) {
    for (JsonNode v : podSpec.path("volumes")) {
      if (name.equals(v.path("name").asText())) {
        return v;
      }
    }
    throw new AssertionError("no volume " + name + " in " + podSpec);
  }

  static JsonNode mount(JsonNode container, String name) {
    for (JsonNode v : container.path("volumeMounts")) {
      if (name.equals(v.path("name").asText())) {
        return v;
      }
    }
    throw new AssertionError("no volume mount " + name + " in " + container);
  }

  /** The value after {@code flag} in an argument list, for every occurrence. */
  static List<String> after(List<String> args, String flag) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size() - 1; i++) {
      if (args.get(i).equals(flag)) {
        out.add(args.get(i + 1));
      }
    }
    return out;
  }

  @Test
  void defaultsRenderTheSchedulerTopicsAgentsAndDashboard() throws IOException {
    Manifests m = Chart.template(null, tmp);
    assertThat(m.kinds()).containsOnly("ConfigMap", "DaemonSet", "FlinkDeployment", "KafkaTopic");
    assertThat(m.ofKind("ConfigMap")).extracting(d -> d.at("/metadata/name").asText())
        .containsExactlyInAnyOrder("prod-locus-agent", "prod-locus-dashboard");
    assertThat(m.ofKind("KafkaTopic")).hasSize(Topics.ALL.size());

    JsonNode fd = m.named("FlinkDeployment", "prod-locus-scheduler");
    assertThat(fd.path("apiVersion").asText()).isEqualTo("flink.apache.org/v1beta1");
    JsonNode spec = fd.path("spec");
    assertThat(spec.path("image").asText()).isEqualTo("ghcr.io/locus/locus-scheduler:0.1.0");
    assertThat(spec.path("flinkVersion").asText()).isEqualTo("v2_0");
    JsonNode conf = spec.path("flinkConfiguration");
    assertThat(conf.path("state.backend.type").asText()).isEqualTo("rocksdb");
    assertThat(conf.path("execution.checkpointing.dir").asText()).isEqualTo("s3://locus-state/locus/checkpoints");
    assertThat(conf.path("execution.checkpointing.savepoint-dir").asText()).isEqualTo("s3://locus-state/locus/savepoints");
    assertThat(conf.path("execution.checkpointing.interval").asText()).isEqualTo("1 s");
    assertThat(conf.path("metrics.reporter.prom.factory.class").asText())
        .isEqualTo("org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
    assertThat(conf.path("metrics.reporter.prom.port").asText()).isEqualTo("9249");
    assertThat(conf.path("high-availability.type").asText()).isEqualTo("kubernetes");
    assertThat(conf.path("high-availability.storageDir").asText()).isEqualTo("s3://locus-state/locus/ha");
    JsonNode job = spec.path("job");
    assertThat(job.path("jarURI").asText())
        .isEqualTo("local:///opt/flink/usrlib/locus-scheduler-job.jar");
    assertThat(job.path("entryClass").asText()).isEqualTo("io.locus.jobs.SchedulerJobMain");
    assertThat(job.path("upgradeMode").asText()).isEqualTo("savepoint");
    assertThat(job.path("parallelism").asInt()).isEqualTo(1);
    List<String> args = texts(job.path("args"));
    assertThat(args.subList(0, 3)).containsExactly("run", "--bootstrap-servers", "locus-kafka-bootstrap:9092");
    assertThat(after(args, "--pool-policy")).containsExactly("batch=MCH");
    assertThat(after(args, "--pools")).containsExactly("batch");
    assertThat(after(args, "--parallelism")).containsExactly("1");
    assertThat(after(args, "--checkpoint-interval")).containsExactly("PT1S");
    assertThat(args).contains("--no-create-topics").doesNotContain("--kafka-properties",
        "--decision-secret-file", "--node-secret-file");
    // No security configured: nothing mounted into the Flink pods but the reporter's port.
    JsonNode main = spec.at("/podTemplate/spec/containers/0");
    assertThat(main.path("name").asText()).isEqualTo("flink-main-container");
    assertThat(main.at("/ports/0/containerPort").asInt()).isEqualTo(9249);
    assertThat(spec.at("/podTemplate/spec/volumes").isMissingNode()).isTrue();

    JsonNode agent = agentContainer(m);
    assertThat(agent.path("image").asText()).isEqualTo("ghcr.io/locus/locus-agent:0.1.0");
    assertThat(texts(agent.path("command"))).containsExactly("/opt/locus/bin/locus-agent");
    assertThat(texts(agent.path("args"))).containsExactly("real", "--config",
        "/etc/locus/agent.yaml", "--node-id", "$(LOCUS_NODE_NAME)");
    // The non-root agent gets the node's directory from a root init container, and the secrets
    // through its group.
    JsonNode init = m.one("DaemonSet").at("/spec/template/spec/initContainers/0");
    assertThat(init.path("image").asText()).isEqualTo("ghcr.io/locus/locus-agent:0.1.0");
    assertThat(texts(init.path("command"))).containsExactly("chown", "-R", "10001:10001",
        "/var/lib/locus");
    assertThat(init.at("/securityContext/runAsUser").asInt()).isZero();
    assertThat(mount(init, "data").path("mountPath").asText()).isEqualTo("/var/lib/locus");
    assertThat(m.one("DaemonSet").at("/spec/template/spec/securityContext/fsGroup").asInt())
        .isEqualTo(10001);
    assertThat(agent.at("/env/0/name").asText()).isEqualTo("LOCUS_NODE_NAME");
    assertThat(agent.at("/env/0/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("spec.nodeName");
    JsonNode cfg = agentConfig(m);
    assertThat(cfg.path("pool").asText()).isEqualTo("batch");
    assertThat(cfg.at("/http/bind").asText()).isEqualTo("0.0.0.0");
    // The stand-in that writes every declared output (issue 23), exactly the agent's own.
    assertThat(texts(cfg.at("/templates/checksum/command")))
        .containsExactlyElementsOf(io.locus.agent.real.TaskTemplate.CHECKSUM_COMMAND);
    assertThat(cfg.path("default-template").asText()).isEqualTo("checksum");
    assertThat(cfg.has("security")).isFalse();
    // The storage root's directory on the node is mounted where the file: URI points.
    JsonNode pod = m.one("DaemonSet").at("/spec/template/spec");
    assertThat(volume(pod, "storage").at("/hostPath/path").asText()).isEqualTo("/data/pool");
    assertThat(mount(agent, "storage").path("mountPath").asText()).isEqualTo("/data/pool");
    assertThat(mount(agent, "storage").path("readOnly").asBoolean()).isTrue();
  }

  @Test
  void probesPointAtTheAgentsHealthEndpointOnItsConfiguredPort() throws IOException {
    for (Manifests m : List.of(Chart.template(null, tmp),
        Chart.template(Chart.values(ValueSets.MULTI_POOL), tmp))) {
      JsonNode agent = agentContainer(m);
      int port = agentConfig(m).at("/http/port").asInt();
      assertThat(agent.at("/ports/0/name").asText()).isEqualTo("http");
      assertThat(agent.at("/ports/0/containerPort").asInt()).isEqualTo(port);
      for (String probe : List.of("livenessProbe", "readinessProbe")) {
        assertThat(agent.at("/" + probe + "/httpGet/path").asText()).as(probe).isEqualTo("/health");
        assertThat(agent.at("/" + probe + "/httpGet/port").asText()).as(probe).isEqualTo("http");
      }
    }
    assertThat(agentConfig(Chart.template(Chart.values(ValueSets.MULTI_POOL), tmp)).at("/http/port").asInt())
        .isEqualTo(7171);
  }

  @Test
  void theAgentsGracePeriodCoversItsDrainAndSecurityContextsPassThrough() {
    JsonNode pod = Chart.template(null, tmp).one("DaemonSet").at("/spec/template/spec");
    assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isEqualTo(5 * 60 + 30);
    assertThat(pod.at("/containers/0/livenessProbe/terminationGracePeriodSeconds").asInt()).isEqualTo(30);
    assertThat(pod.at("/securityContext/fsGroup").asInt()).isEqualTo(10001);
    assertThat(pod.at("/containers/0/securityContext").isMissingNode()).isTrue();
    pod = Chart.template(Chart.values("""
        agent:
          drainTimeout: 1.5h
          podSecurityContext: {fsGroup: 1000}
          securityContext: {runAsUser: 1000, runAsNonRoot: true}
          hostPathOwner: "1000:1000"
        """), tmp).one("DaemonSet").at("/spec/template/spec");
    assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isEqualTo(5400 + 30);
    assertThat(pod.at("/securityContext/fsGroup").asInt()).isEqualTo(1000);
    assertThat(pod.at("/containers/0/securityContext/runAsUser").asInt()).isEqualTo(1000);
    assertThat(pod.at("/initContainers/0/command/2").asText()).isEqualTo("1000:1000");
    // "": no init container (the directory is prepared on the node)
    assertThat(Chart.template(Chart.values("agent: {hostPathOwner: \"\"}"), tmp).one("DaemonSet")
        .at("/spec/template/spec/initContainers").isMissingNode()).isTrue();
    assertThat(Chart.template(Chart.values("agent: {drainTimeout: 90s}"), tmp).one("DaemonSet")
        .at("/spec/template/spec/terminationGracePeriodSeconds").asInt()).isEqualTo(120);
  }

  @Test
  void poolsStateResourcesAndSizesReachTheirFields() throws IOException {
    Manifests m = Chart.template(Chart.values(ValueSets.MULTI_POOL), tmp);
    JsonNode spec = m.one("FlinkDeployment").path("spec");
    List<String> args = texts(spec.at("/job/args"));
    assertThat(after(args, "--bootstrap-servers")).containsExactly("kafka-a:9093,kafka-b:9093");
    assertThat(after(args, "--pool-policy")).containsExactly("batch=MCH", "astro=GCC", "lhcb=FARM");
    assertThat(after(args, "--split-param")).containsExactlyInAnyOrder("lhcb:tCpu=0.02", "lhcb:cacheGb=40");
    assertThat(after(args, "--pools")).containsExactly("batch,astro,lhcb");
    assertThat(after(args, "--window")).containsExactly("1000");
    assertThat(after(args, "--theta")).containsExactly("0.75");
    assertThat(after(args, "--checkpoint-interval")).containsExactly("PT10S");
    assertThat(after(args, "--parallelism")).containsExactly("3");
    assertThat(spec.at("/job/parallelism").asInt()).isEqualTo(3);

    JsonNode conf = spec.path("flinkConfiguration");
    assertThat(conf.path("execution.checkpointing.dir").asText()).isEqualTo("gs://acme-locus/prod/checkpoints");
    assertThat(conf.path("execution.checkpointing.savepoint-dir").asText()).isEqualTo("gs://acme-locus/prod/savepoints");
    assertThat(conf.path("execution.checkpointing.interval").asText()).isEqualTo("10 s");
    assertThat(conf.path("taskmanager.numberOfTaskSlots").asText()).isEqualTo("2");
    assertThat(spec.at("/jobManager/resource/memory").asText()).isEqualTo("3072m");
    assertThat(spec.at("/jobManager/resource/cpu").asDouble()).isEqualTo(1.5);
    assertThat(spec.at("/taskManager/resource/memory").asText()).isEqualTo("8192m");
    assertThat(spec.at("/taskManager/resource/cpu").asDouble()).isEqualTo(4.0);
    assertThat(spec.path("image").asText()).isEqualTo("registry.example.org/locus-scheduler:1.2.3");
    assertThat(spec.path("imagePullPolicy").asText()).isEqualTo("Always");

    JsonNode agent = agentContainer(m);
    // image.agent.tag wins over image.tag
    assertThat(agent.path("image").asText()).isEqualTo("registry.example.org/locus-agent:1.2.4");
    assertThat(agent.path("imagePullPolicy").asText()).isEqualTo("Always");
    assertThat(agent.at("/resources/limits/memory").asText()).isEqualTo("6Gi");
    assertThat(agent.at("/resources/requests/cpu").asText()).isEqualTo("1");
    assertThat(agent.at("/ports/0/hostPort").asInt()).isEqualTo(7171);
    JsonNode pod = m.one("DaemonSet").at("/spec/template/spec");
    assertThat(volume(pod, "data").at("/hostPath/path").asText()).isEqualTo("/mnt/nvme/locus");
    assertThat(mount(agent, "data").path("mountPath").asText()).isEqualTo("/mnt/nvme/locus");
    JsonNode cfg = agentConfig(m);
    assertThat(cfg.path("pool").asText()).isEqualTo("astro");
    assertThat(cfg.path("slots").asInt()).isEqualTo(8);
    assertThat(cfg.at("/cache/quota").asText()).isEqualTo("200GB");
    assertThat(cfg.at("/cache/dir").asText()).isEqualTo("/mnt/nvme/locus/cache");
    assertThat(cfg.at("/work/dir").asText()).isEqualTo("/mnt/nvme/locus/work");
    assertThat(cfg.at("/kafka/bootstrap-servers").asText()).isEqualTo("kafka-a:9093,kafka-b:9093");

    assertThat(m.ofKind("KafkaTopic")).allSatisfy(t -> {
      assertThat(t.at("/metadata/labels/strimzi.io~1cluster").asText()).isEqualTo("main");
      assertThat(t.at("/spec/replicas").asInt()).isEqualTo(2);
    });
  }

  @Test
  void withoutStrimziAHookJobCreatesTheTopics() {
    Manifests m = Chart.templateWithHooks(Chart.values(ValueSets.NO_STRIMZI_SECURED), tmp);
    assertThat(m.ofKind("KafkaTopic")).isEmpty();
    JsonNode job = m.named("Job", "prod-locus-topics");
    assertThat(job.at("/metadata/annotations").get(Chart.HOOK).asText()).isEqualTo("pre-install,pre-upgrade");
    JsonNode c = job.at("/spec/template/spec/containers/0");
    assertThat(c.path("image").asText()).isEqualTo("ghcr.io/locus/locus-cli:0.1.0");
    List<String> args = texts(c.path("args"));
    assertThat(args.subList(0, 2)).containsExactly("topics", "create");
    assertThat(after(args, "--bootstrap-servers")).containsExactly("locus-kafka-bootstrap:9092");
    assertThat(after(args, "--replication-factor")).containsExactly("3");
    assertThat(after(args, "--kafka-properties")).containsExactly("/etc/locus/kafka/client.properties");
    assertThat(mount(c, "kafka-client").path("mountPath").asText()).isEqualTo("/etc/locus/kafka");
    assertThat(volume(job.at("/spec/template/spec"), "kafka-client").at("/secret/secretName").asText())
        .isEqualTo("prod-locus-secrets");
    // The chart's own Secret exists before the hook Job runs.
    JsonNode secret = m.named("Secret", "prod-locus-secrets");
    assertThat(secret.at("/metadata/annotations").get(Chart.HOOK).asText()).isEqualTo("pre-install,pre-upgrade");
    assertThat(Integer.parseInt(secret.at("/metadata/annotations").get(Chart.HOOK + "-weight").asText()))
        .isLessThan(Integer.parseInt(job.at("/metadata/annotations").get(Chart.HOOK + "-weight").asText()));

    // With Strimzi (the default) there is no Job, hook or not.
    assertThat(Chart.templateWithHooks(null, tmp).ofKind("Job")).isEmpty();
  }

  @Test
  void securitySecretsAreMountedAsFilesAndNamedInArgsAndAgentConfig() throws IOException {
    Manifests m = Chart.template(Chart.values(ValueSets.MONITORED_EXISTING_SECRETS), tmp);
    assertThat(m.ofKind("Secret")).as("existing Secrets are not made by the chart").isEmpty();
    JsonNode spec = m.one("FlinkDeployment").path("spec");
    JsonNode flinkPod = spec.at("/podTemplate/spec");
    JsonNode main = flinkPod.at("/containers/0");
    assertThat(volume(flinkPod, "kafka-client").at("/secret/secretName").asText()).isEqualTo("kafka-client-tls");
    assertThat(volume(flinkPod, "decision-secret").at("/secret/secretName").asText()).isEqualTo("locus-decision");
    assertThat(volume(flinkPod, "node-secret").at("/secret/secretName").asText()).isEqualTo("locus-cluster-node-secret");
    assertThat(mount(main, "kafka-client").path("mountPath").asText()).isEqualTo("/etc/locus/kafka");
    assertThat(mount(main, "decision-secret").path("mountPath").asText()).isEqualTo("/etc/locus/secrets/decision");
    assertThat(mount(main, "node-secret").path("mountPath").asText()).isEqualTo("/etc/locus/secrets/node");
    List<String> args = texts(spec.at("/job/args"));
    assertThat(after(args, "--kafka-properties")).containsExactly("/etc/locus/kafka/client.properties");
    assertThat(after(args, "--decision-secret-file")).containsExactly("/etc/locus/secrets/decision/decision.secret");
    assertThat(after(args, "--node-secret-file")).containsExactly("/etc/locus/secrets/node/node.secret");
    assertThat(after(args, "--parallelism")).containsExactly("4");
    assertThat(spec.at("/job/parallelism").asInt()).isEqualTo(4);
    assertThat(spec.path("flinkVersion").asText()).isEqualTo("v2_2");

    JsonNode agent = agentContainer(m);
    JsonNode agentPod = m.one("DaemonSet").at("/spec/template/spec");
    JsonNode cfg = agentConfig(m);
    assertThat(cfg.at("/kafka/properties-file").asText()).isEqualTo("/etc/locus/kafka/client.properties");
    assertThat(cfg.at("/security/secret-file").asText()).isEqualTo("/etc/locus/secrets/decision/decision.secret");
    assertThat(cfg.at("/security/node-key-file").asText()).isEqualTo("/etc/locus/secrets/node-key/node.key");
    assertThat(volume(agentPod, "decision-secret").at("/secret/secretName").asText()).isEqualTo("locus-decision");
    assertThat(volume(agentPod, "kafka-client").at("/secret/secretName").asText()).isEqualTo("kafka-client-tls");
    // Each agent gets only its own node's key: the entry named by its node, through subPathExpr.
    assertThat(volume(agentPod, "node-keys").at("/secret/secretName").asText()).isEqualTo("locus-node-keys");
    JsonNode keyMount = mount(agent, "node-keys");
    assertThat(keyMount.path("mountPath").asText()).isEqualTo("/etc/locus/secrets/node-key/node.key");
    assertThat(keyMount.path("subPathExpr").asText()).isEqualTo("$(LOCUS_NODE_NAME)");
    // The scheduler's cluster node secret never reaches an agent.
    assertThat(agentPod.toString()).doesNotContain("locus-cluster-node-secret");
  }

  @Test
  void monitorsSelectThePodsAndPortsTheyScrape() {
    Manifests none = Chart.template(null, tmp);
    assertThat(none.ofKind("ServiceMonitor")).isEmpty();
    assertThat(none.ofKind("PodMonitor")).isEmpty();

    Manifests m = Chart.template(Chart.values(ValueSets.MONITORED_EXISTING_SECRETS), tmp);
    JsonNode agentLabels = m.one("DaemonSet").at("/spec/template/metadata/labels");
    JsonNode service = m.named("Service", "prod-locus-agent");
    service.at("/spec/selector").properties().forEach(e ->
        assertThat(agentLabels.path(e.getKey()).asText()).as(e.getKey()).isEqualTo(e.getValue().asText()));
    JsonNode sm = m.one("ServiceMonitor");
    sm.at("/spec/selector/matchLabels").properties().forEach(e ->
        assertThat(service.at("/metadata/labels").path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
    assertThat(sm.at("/spec/endpoints/0/port").asText()).isEqualTo(service.at("/spec/ports/0/name").asText());
    assertThat(sm.at("/spec/endpoints/0/path").asText()).isEqualTo("/metrics");

    JsonNode pm = m.one("PodMonitor");
    JsonNode flinkLabels = m.one("FlinkDeployment").at("/spec/podTemplate/metadata/labels");
    pm.at("/spec/selector/matchLabels").properties().forEach(e ->
        assertThat(flinkLabels.path(e.getKey()).asText()).as(e.getKey()).isEqualTo(e.getValue().asText()));
    JsonNode port = m.one("FlinkDeployment").at("/spec/podTemplate/spec/containers/0/ports/0");
    assertThat(pm.at("/spec/podMetricsEndpoints/0/port").asText()).isEqualTo(port.path("name").asText());
    assertThat(port.path("containerPort").asText())
        .isEqualTo(m.one("FlinkDeployment").at("/spec/flinkConfiguration/metrics.reporter.prom.port").asText());

    JsonNode dashboard = m.named("ConfigMap", "prod-locus-dashboard");
    assertThat(dashboard.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
    assertThat(dashboard.at("/metadata/namespace").asText()).isEqualTo("monitoring");
  }

  @Test
  void aFilePolicyWithPerPoolParamsFailsNamingThePool() {
    assertThatThrownBy(() -> Chart.template(Chart.values("""
        pools: [{name: batch, policy: MCH, params: {window: 10}}]
        """), tmp)).hasMessageContaining("pool \"batch\"").hasMessageContaining("scheduler.window");
  }

  @Test
  void anAgentsOnlyReleaseRendersOnlyTheAgentsOfItsPool() throws IOException {
    Manifests m = Chart.templateWithHooks(Chart.values("""
        scheduler: {enabled: false}
        topics: {enabled: false, strimzi: {enabled: false}}
        metrics: {dashboard: {enabled: false}}
        agent: {pool: astro, nodeSelector: {locus/pool: astro}}
        """), tmp);
    assertThat(m.kinds()).containsExactlyInAnyOrder("ConfigMap", "DaemonSet");
    assertThat(agentConfig(m).path("pool").asText()).isEqualTo("astro");
    assertThat(m.one("DaemonSet").at("/spec/template/spec/nodeSelector/locus~1pool").asText())
        .isEqualTo("astro");
  }

  @Test
  void lastStateUpgradesNeedHighAvailability() {
    assertThatThrownBy(() -> Chart.template(Chart.values(
        "scheduler: {upgradeMode: last-state, highAvailability: false}"), tmp))
        .hasMessageContaining("highAvailability");
    JsonNode conf = Chart.template(Chart.values("scheduler: {upgradeMode: stateless, highAvailability: false}"), tmp)
        .one("FlinkDeployment").at("/spec/flinkConfiguration");
    assertThat(conf.has("high-availability.type")).isFalse();
  }

  @Test
  void aPoolGivenTwiceFails() {
    assertThatThrownBy(() -> Chart.template(Chart.values("""
        pools: [{name: a, policy: MCH}, {name: a, policy: GCC}]
        """), tmp)).hasMessageContaining("given twice");
  }

  @Test
  void aDefaultTemplateThatIsNotATemplateFails() {
    assertThatThrownBy(() -> Chart.template(Chart.values("agent: {defaultTemplate: sort}"), tmp))
        .hasMessageContaining("agent.defaultTemplate").hasMessageContaining("checksum");
  }

  @Test
  void theSchemaRefusesAWrongValueWithItsPath() {
    assertThatThrownBy(() -> Chart.template(Chart.values("agent: {slots: \"3\"}"), tmp))
        .hasMessageContaining("slots");
    assertThatThrownBy(() -> Chart.template(Chart.values("agent: {cacheQuota: 12Mb}"), tmp))
        .hasMessageContaining("cacheQuota");
    assertThatThrownBy(() -> Chart.template(Chart.values("pools: []"), tmp))
        .hasMessageContaining("pools");
    assertThatThrownBy(() -> Chart.template(Chart.values("scheduler: {flinkVersion: v1_20}"), tmp))
        .hasMessageContaining("flinkVersion");
  }
}
