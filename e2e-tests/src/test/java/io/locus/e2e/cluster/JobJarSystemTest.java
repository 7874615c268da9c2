package io.locus.e2e.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.cli.demo.DemoWorkload;
import io.locus.connectors.DeliveryMode;
import io.locus.cli.chaos.DeliveryChecker;
import io.locus.jobs.SchedulerJobMain;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.JobSubmitted;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler job jar ({@code scheduler-job/target/locus-scheduler-job.jar}, built in
 * scheduler-job's package phase) on a real Flink: a standalone session cluster of child processes
 * whose class path holds Flink and its dependencies but neither Locus nor what the jar must bring
 * itself (the Kafka connector and clients, flink-avro and Avro, Jackson, picocli), as a cluster
 * from flink-dist would. Flink's own client submits it as {@code flink run -d -c
 * io.locus.jobs.SchedulerJobMain locus-scheduler-job.jar run --bootstrap-servers ...
 * --pool-policy ...} does (CliFrontend in a child JVM with that same class path: Locus reaches
 * client, JobManager and TaskManager only inside the jar), with the arguments the helm chart
 * passes. Simulated agents of one pool then get every task of a workload placed and completed,
 * exactly once. (The REST API's jar upload needs flink-runtime-web, which the test class path
 * lacks; it runs the same main() in the JobManager.)
 */
@Tag("integration")
@Timeout(180)
class JobJarSystemTest {
  private static final Path JOB_JAR =
      Path.of("..", "scheduler-job", "target", "locus-scheduler-job.jar").toAbsolutePath()
          .normalize();
  private static final String POOL = "jar-gcc";
  private static final int TASKS = 30;

  /**
   * What a cluster built from flink-dist would have: the test's class path without Locus's own
   * classes and without the libraries the job jar carries (so a class missing from the jar fails
   * the job here instead of being found on the cluster's class path).
   */
  static String flinkOnlyClassPath() {
    List<String> inTheJar = List.of("/io/locus/", "/kafka-clients-", "/flink-connector-kafka-",
        "/flink-avro-", "/org/apache/avro/", "/com/fasterxml/jackson/", "/picocli-", "/zstd-jni-");
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        // the reactor's modules: target/classes, or target/*.jar once packaged
        .filter(e -> !e.contains(File.separator + "target" + File.separator)
            && !e.endsWith(File.separator + "classes"))
        .filter(e -> inTheJar.stream().noneMatch(e::contains))
        .collect(Collectors.joining(File.pathSeparator));
  }

  @Test
  void theJobJarsEntryClassRunsTheSchedulerOnAFlinkClusterWithoutLocusOnItsClassPath(
      @TempDir Path dir) throws Exception {
    assertThat(JOB_JAR).as("the job jar: build it with mvn -pl scheduler-job -am package")
        .isRegularFile();
    try (JarFile jar = new JarFile(JOB_JAR.toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
          .isEqualTo(SchedulerJobMain.class.getName());
      assertThat(jar.getEntry("org/apache/flink/connector/kafka/source/KafkaSource.class"))
          .as("the Kafka connector is not in flink-dist: the jar carries it").isNotNull();
      assertThat(jar.getEntry("org/apache/flink/streaming/api/environment/"
          + "StreamExecutionEnvironment.class")).as("Flink itself is the cluster's").isNull();
      assertThat(jar.stream().map(e -> e.getName()).filter(n -> n.startsWith("io/locus/cli/")
          || n.startsWith("io/locus/sim/") || n.startsWith("io/locus/agent/")
          || n.startsWith("io/locus/dashboard/") || n.startsWith("one/profiler/")
          || n.startsWith("org/rocksdb/"))).as("no CLI extras, agent, profiler or RocksDB")
          .isEmpty();
    }
    String classPath = flinkOnlyClassPath();
    assertThat(classPath).doesNotContain("/io/locus/").doesNotContain("/target/")
        .doesNotContain("kafka-clients").doesNotContain("flink-connector-kafka")
        .contains("flink-runtime");

    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of());
    StandaloneFlink flink = null;
    AgentHost<NodeAgent> agents = null;
    try {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      flink = StandaloneFlink.start(dir.resolve("flink"), 1, 2, Map.of(), Duration.ofSeconds(90),
          classPath);
      StandaloneFlink cluster = flink;
      agents = AgentHost.start(HostConfig.builder(bootstrap)
              .nodeIds(HostConfig.nodeIds(POOL + "-n", 4)).ensureTopics(false).build(),
          new SimulatedAgents(AgentConfig.builder(POOL).slots(2).timeScale(0.01)
              .heartbeatMs(500).build()));

      // As the helm chart passes them to the entry class (templates/flinkdeployment.yaml).
      List<String> args = List.of("run", "--bootstrap-servers", bootstrap,
          "--pool-policy", POOL + "=GCC", "--state-dir", dir.resolve("state").toString(),
          "--checkpoint-interval", "PT1S", "--transactional-id-prefix", "job-jar-test",
          "--no-create-topics");
      String out = flinkRun(dir.resolve("client"), classPath, flink.restAddress(), args);
      String jobId = out.lines().filter(l -> l.startsWith("locus run: job ")
              && l.contains(" submitted")).findFirst()
          .orElseThrow(() -> new AssertionError("no job submitted:\n" + out))
          .replaceAll("^locus run: job (\\w+) submitted.*$", "$1");
      assertThat(out).contains("Flink the Flink cluster of this program");
      flink.await(() -> {
        JsonNode job = cluster.get("/jobs/" + jobId);
        return job != null && "RUNNING".equals(job.path("state").asText());
      }, Duration.ofSeconds(60), () -> "job " + jobId + " running: " + cluster.get("/jobs/" + jobId));
      assertThat(flink.get("/jobs/" + jobId).path("name").asText()).isEqualTo("locus-scheduler");
      assertThat(agents.awaitRegistered(Duration.ofSeconds(30))).isTrue();

      List<JobSubmitted> jobs = DemoWorkload.generate(POOL, DemoWorkload.Spec.demo(TASKS, 20, 21));
      try (DeliveryChecker checker = new DeliveryChecker(bootstrap, true);
          KafkaProducer<byte[], byte[]> producer =
              new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
        for (JobSubmitted j : jobs) {
          j.setSubmitTimeMs(System.currentTimeMillis());
          producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
              Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j)));
        }
        producer.flush();
        DeliveryChecker.Verdict v = checker.awaitCompletion(POOL,
            jobs.stream().map(JobSubmitted::getJobId).toList(), Duration.ofSeconds(60));
        System.out.println("job jar " + JOB_JAR + " (" + Files.size(JOB_JAR) + " bytes): "
            + v.summary());
        assertThat(v.completed()).as(v.summary()).isEqualTo(TASKS);
        assertThat(v.keeps(DeliveryMode.EXACTLY_ONCE)).as(v.summary()).isTrue();
      }
      assertThat(flink.isAlive("jobmanager")).as("main() returned without System.exit").isTrue();
    } catch (Throwable t) {
      if (flink != null) {
        System.out.println("standalone cluster logs:\n" + flink.logTails());
      }
      throw t;
    } finally {
      if (agents != null) {
        agents.close(); // before the broker: an agent says goodbye through it
      }
      if (flink != null) {
        flink.close();
      }
      kafka.close();
    }
  }

  /**
   * {@code flink run -d -c SchedulerJobMain JOB_JAR ARGS...}: Flink's CliFrontend in a child JVM
   * on {@code classPath}, configured for the cluster's REST endpoint; its output, once it exited 0.
   */
  private static String flinkRun(Path dir, String classPath, String rest, List<String> args)
      throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    String[] hostPort = rest.split(":");
    Files.writeString(conf.resolve("config.yaml"), String.join("\n",
        "rest.address: " + hostPort[0], "rest.port: " + hostPort[1],
        "jobmanager.rpc.address: " + hostPort[0], ""));
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
      }
    }
    cmd.addAll(List.of("-cp", classPath, "org.apache.flink.client.cli.CliFrontend",
        "run", "-d", "-c", SchedulerJobMain.class.getName(), JOB_JAR.toString()));
    cmd.addAll(args);
    Path log = dir.resolve("flink-run.out");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().put("FLINK_CONF_DIR", conf.toString());
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("flink run did not return within 120 s:\n" + Files.readString(log));
    }
    String out = Files.readString(log);
    assertThat(p.exitValue()).as("flink run:\n" + out).isZero();
    return out;
  }
}
