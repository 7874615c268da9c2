package io.locus.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.cli.LocusCli;
import io.locus.operators.SchedulerConfig;
import io.locus.jobs.SchedulerJob;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.testkit.Await;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.program.PackagedProgram;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code locus run} as an operator meets it: one line saying what starts where (with the REST
 * port it really bound), a fast one-line failure naming an address it cannot reach, and a logged
 * stop with a savepoint.
 */
@Tag("integration")
@Timeout(120)
class RunCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmbeddedKafka kafka;
  private static Path kafkaDir;

  @BeforeAll
  static void broker() throws IOException {
    kafkaDir = Files.createTempDirectory("run-command-test-kafka");
    kafka = EmbeddedKafka.start(kafkaDir.resolve("data"), Map.of());
  }

  @AfterAll
  static void stopBroker() throws IOException {
    if (kafka != null) {
      kafka.close();
    }
    try (Stream<Path> s = Files.walk(kafkaDir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Captured output of one in-process command. */
  private static final class Console {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine cl = LocusCli.commandLine();

    Console() {
      cl.setOut(new PrintWriter(out, true));
      cl.setErr(new PrintWriter(err, true));
    }

    synchronized String out() {
      return out.toString();
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort(); // closed when we return: nothing listens there
    }
  }

  @Test
  void aWrongBrokerAddressFailsWithinSecondsNamingItWithoutAStackTrace(@TempDir Path dir)
      throws Exception {
    int port = closedPort();
    Console c = new Console();
    long t0 = System.nanoTime();
    int code = c.cl.execute("run", "--bootstrap-servers", "127.0.0.1:" + port,
        "--state-dir", dir.toString());
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    assertThat(code).isEqualTo(1);
    assertThat(seconds).as("fails fast").isLessThan(15);
    String err = c.err.toString();
    assertThat(err).contains("127.0.0.1:" + port).contains("no Kafka broker reachable");
    assertThat(err.strip().lines().count()).as(err).isEqualTo(1);
    assertThat(err).doesNotContain("\tat ").doesNotContain("Exception in");
    assertThat(c.out()).as("nothing started").isEmpty();
  }

  @Test
  void withoutANodeSecretTheStartWarnsWhatAnyWriterToTheNodeTopicsCanDo() {
    SchedulerConfig open = SchedulerConfig.defaults("MCH");
    assertThat(RunCommand.trustWarning(open)).startsWith("locus run: WARN no --node-secret-file")
        .contains("task-events", "node-reports", "complete or fail any placed attempt");
    assertThat(RunCommand.trustWarning(open.withNodeSecret(new byte[] {1, 2, 3}))).isNull();
  }

  @Test
  void anUnreachableFlinkClusterFailsWithinSecondsNamingIt(@TempDir Path dir) throws Exception {
    int port = closedPort();
    Console c = new Console();
    long t0 = System.nanoTime();
    int code = c.cl.execute("run", "--bootstrap-servers", kafka.bootstrapServers(),
        "--no-create-topics", "--flink-rest", "127.0.0.1:" + port);
    assertThat(code).isEqualTo(1);
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(15);
    assertThat(c.err.toString()).contains("no Flink REST API reachable at http://127.0.0.1:" + port)
        .doesNotContain("\tat ");
  }

  @Test
  void onAClusterTheDirectoriesAreTheClustersUnlessGivenAndASavepointMayBeARemoteUri()
      throws Exception {
    RunCommand cluster = new RunCommand();
    CommandLine cl = new CommandLine(cluster);
    cl.parseArgs("--bootstrap-servers", "k:9092", "--flink-rest", "jm:8081",
        "--from-savepoint", "s3://bucket/savepoints/savepoint-1");
    cluster.spec = cl.getCommandSpec();
    assertThat(cluster.checkpoints()).isNull();
    assertThat(cluster.savepoints()).isNull();
    assertThat(cluster.options().checkpointDir()).isNull();
    assertThat(cluster.clusterSavepoint()).isEqualTo("s3://bucket/savepoints/savepoint-1");
    assertThat(cluster.restorePoint().isFresh()).as("nothing restored from local files").isTrue();

    RunCommand shared = new RunCommand();
    CommandLine sl = new CommandLine(shared);
    sl.parseArgs("--bootstrap-servers", "k:9092", "--flink-rest", "jm:8081", "--state-dir",
        "/shared/locus");
    shared.spec = sl.getCommandSpec();
    assertThat(shared.checkpoints()).isEqualTo(Path.of("/shared/locus/checkpoints"));
    assertThat(shared.savepoints()).isEqualTo(Path.of("/shared/locus/savepoints"));

    Console local = new Console();
    // its own state dir: a local run locks it, and the working directory is the module's
    assertThat(local.cl.execute("run", "--bootstrap-servers", "h:1", "--state-dir",
        Files.createTempDirectory("locus-run-test").toString(), "--from-savepoint",
        "s3://bucket/savepoints/savepoint-1")).as("locally a savepoint must be a local path")
        .isEqualTo(2);
    assertThat(local.err.toString()).contains("no savepoint at");
  }

  @Test
  void theJarShippedToAClusterIsTheSelfContainedLocusJarOrTheGivenOne(@TempDir Path dir)
      throws Exception {
    java.util.jar.Manifest withMain = new java.util.jar.Manifest();
    withMain.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
    withMain.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS,
        LocusCli.class.getName());
    Path locus = dir.resolve("locus.jar");
    new java.util.jar.JarOutputStream(Files.newOutputStream(locus), withMain).close();
    java.util.jar.Manifest thinManifest = new java.util.jar.Manifest();
    thinManifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
    Path thin = dir.resolve("locus-cli.jar");
    new java.util.jar.JarOutputStream(Files.newOutputStream(thin), thinManifest).close();
    java.util.jar.Manifest jobManifest = new java.util.jar.Manifest();
    jobManifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
    jobManifest.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS,
        io.locus.jobs.SchedulerJobMain.class.getName());
    Path job = dir.resolve("locus-scheduler-job.jar");
    new java.util.jar.JarOutputStream(Files.newOutputStream(job), jobManifest).close();
    assertThat(FlinkTarget.isLocusJar(locus)).isTrue();
    assertThat(FlinkTarget.isLocusJar(job)).as("the job jar is self-contained too").isTrue();
    assertThat(FlinkTarget.isLocusJar(thin)).isFalse();
    assertThat(FlinkTarget.isLocusJar(dir)).isFalse();

    StringBuilder note = new StringBuilder();
    assertThat(FlinkTarget.jars(List.of(thin), note)).containsExactly(thin.toAbsolutePath());
    // This test runs from classes directories: nothing to ship, and the start line says why.
    assertThat(FlinkTarget.jars(List.of(), note)).isEmpty();
    assertThat(note.toString()).contains("no jar shipped").contains("give --jar");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> FlinkTarget.jars(List.of(dir.resolve("missing.jar")), new StringBuilder()))
        .hasMessageContaining("--jar: no file");
  }

  /** --no-detached follows the job on the cluster; a cancel there ends it with one line, exit 1. */
  @Test
  void notDetachedItFollowsTheJobUntilItEnds() throws Exception {
    try (LocalFlink cluster = LocalFlink.start(new Configuration(), 1, "0")) {
      URI rest = URI.create(cluster.url());
      Console c = new Console();
      java.util.concurrent.CompletableFuture<Integer> run =
          java.util.concurrent.CompletableFuture.supplyAsync(() -> c.cl.execute("run",
              "--bootstrap-servers", kafka.bootstrapServers(), "--flink-rest",
              rest.getHost() + ":" + rest.getPort(), "--no-detached", "--state-backend",
              "hashmap", "--transactional-id-prefix", "follow-test"));
      Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ofMillis(100)).until(
          () -> "following the job or ended\n" + c.out() + c.err,
          () -> c.out().contains("locus run: following job ") || run.isDone());
      assertThat(c.out()).as(c.out() + c.err).contains("locus run: following job ")
          .contains("(session cluster; no jar shipped");
      assertThat(run).as("still following").isNotDone();
      String jobId = c.out().lines().filter(l -> l.startsWith("locus run: job ")).findFirst()
          .orElseThrow().replaceAll("^locus run: job (\\w+) submitted.*$", "$1");
      HttpClient.newHttpClient().send(HttpRequest.newBuilder(rest.resolve("/jobs/" + jobId
              + "?mode=cancel")).method("PATCH", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(c.err.toString()).contains("locus run: job " + jobId + " canceled")
          .doesNotContain("\tat ");
    }
  }

  @Test
  void detachedAndABadFlinkAddressAreBadArguments() {
    Console a = new Console();
    assertThat(a.cl.execute("run", "--bootstrap-servers", "h:1", "--detached")).isEqualTo(2);
    assertThat(a.err.toString()).contains("--detached and --no-detached need --flink-rest");
    Console b = new Console();
    assertThat(b.cl.execute("run", "--bootstrap-servers", "h:1", "--flink-rest", "jobmanager"))
        .isEqualTo(2);
    assertThat(b.err.toString()).contains("--flink-rest: expected HOST:PORT");
  }

  /**
   * As an operator runs it: a child process, stopped with a real SIGTERM. The start line names the
   * REST port the embedded Flink really bound (--rest-port 0), and the stop says what it does.
   */
  @Test
  void aLocalRunSaysWhatStartsWhereAndLogsItsStopWithASavepointOnSigterm(@TempDir Path dir)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-XX:+UseSerialGC"));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
      }
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LocusCli.class.getName(),
        "run", "--bootstrap-servers", kafka.bootstrapServers(), "--state-dir", dir.toString(),
        "--rest-port", "0", "--checkpoint-interval", "PT1S", "--state-backend", "hashmap",
        "--pool-policy", "a=GCC", "--pool-policy", "b=FA", "--transactional-id-prefix",
        "run-command-test"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    Child c = new Child(p);
    try {
      c.await(() -> c.text().contains(" running; web UI "), Duration.ofSeconds(90));
      List<String> starts = c.text().lines()
          .filter(l -> l.startsWith("locus run: starting from")).toList();
      assertThat(starts).hasSize(1);
      // no --node-secret-file: said once, at start
      assertThat(c.text().lines().filter(l -> l.contains("WARN no --node-secret-file")))
          .hasSize(1);
      String start = starts.get(0);
      assertThat(start).contains("empty state").contains("Kafka " + kafka.bootstrapServers())
          .contains("checkpoints " + dir.resolve("checkpoints").toAbsolutePath())
          .contains("delivery exactly-once").contains("*=MCH, a=GCC, b=FA");
      Matcher m = Pattern.compile("Flink (http://[^:]+:(\\d+)) \\(embedded MiniCluster\\)")
          .matcher(start);
      assertThat(m.find()).as(start).isTrue();
      assertThat(Integer.parseInt(m.group(2))).as("the real port, not --rest-port 0")
          .isPositive();
      String jobId = c.text().lines().filter(l -> l.contains(" running; web UI ")).findFirst()
          .orElseThrow().replaceAll("^locus run: job (\\w+) running.*$", "$1");

      // The printed address is the job's REST API; once the job has a checkpoint, SIGTERM.
      URI rest = URI.create(m.group(1));
      c.await(() -> get(rest, "/jobs/" + jobId + "/checkpoints").path("counts")
          .path("completed").asInt() > 0, Duration.ofSeconds(60));
      assertThat(get(rest, "/jobs/overview").toString()).contains(jobId).contains("RUNNING");
      // SIGTERM. Not Process.destroy(): it also closes our end of the child's output pipe, and
      // everything the child prints while it stops would be lost.
      assertThat(p.toHandle().destroy()).isTrue();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(c.text()).isTrue();
      c.drained.await(10, TimeUnit.SECONDS);
      Path savepoints = dir.resolve("savepoints").toAbsolutePath();
      assertThat(c.text()).as("exit " + p.exitValue()).contains("locus run: shutting down: stopping job " + jobId
          + " with a savepoint into " + savepoints);
      assertThat(c.text())
          .containsPattern("locus run: savepoint done: \\S+savepoint-\\S+; job stopped")
          .contains("locus run: job " + jobId + " ended");
      assertThat(p.exitValue()).as(c.text()).isZero();
      try (Stream<Path> s = Files.list(savepoints)) {
        assertThat(s.filter(sp -> Files.isRegularFile(sp.resolve("_metadata")))).hasSize(1);
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** A child's output, collected line by line. */
  private static final class Child {
    final StringBuffer out = new StringBuffer();
    final java.util.concurrent.CountDownLatch drained = new java.util.concurrent.CountDownLatch(1);
    final Process process;

    Child(Process p) {
      process = p;
      Thread t = new Thread(() -> {
        try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(
            p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
          String l;
          while ((l = in.readLine()) != null) {
            out.append(l).append('\n');
          }
        } catch (IOException e) {
          // the child is gone
        } finally {
          drained.countDown();
        }
      }, "child-output");
      t.setDaemon(true);
      t.start();
    }

    String text() {
      return out.toString();
    }

    void await(BooleanSupplier condition, Duration timeout) {
      Await.atMost(timeout).pollEvery(Duration.ofMillis(100)).until(
          () -> "(child still running)\n" + text(), () -> {
            if (condition.getAsBoolean()) {
              return true;
            }
            if (!process.isAlive()) {
              throw new AssertionError("the child exited before the condition held\n" + text());
            }
            return false;
          });
    }
  }

  /**
   * As {@code flink run -c io.locus.cli.LocusCli locus.jar run ...} and {@code flink run -c
   * io.locus.jobs.SchedulerJobMain locus-scheduler-job.jar run ...} do it: Flink's client runs the
   * main class with its own (remote) environment; the command submits, prints, and returns
   * without System.exit (which would end the client, or the JobManager in application mode).
   */
  @ParameterizedTest
  @ValueSource(classes = {LocusCli.class, io.locus.jobs.SchedulerJobMain.class})
  void asAFlinkProgramItSubmitsAndReturnsWithoutExiting(Class<?> entryClass) throws Exception {
    try (LocalFlink cluster = LocalFlink.start(new Configuration(), 2, "0")) {
      URI rest = URI.create(cluster.url());
      Configuration conf = new Configuration();
      conf.set(DeploymentOptions.TARGET, "remote");
      conf.set(DeploymentOptions.ATTACHED, false);
      conf.set(RestOptions.ADDRESS, rest.getHost());
      conf.set(RestOptions.PORT, rest.getPort());
      PackagedProgram program = PackagedProgram.newBuilder()
          .setEntryPointClassName(entryClass.getName())
          .setArguments("run", "--bootstrap-servers", kafka.bootstrapServers(),
              "--pool-policy", "p=GCC", "--state-backend", "hashmap", "--parallelism", "2",
              "--transactional-id-prefix", "program-test-" + entryClass.getSimpleName())
          .setConfiguration(conf)
          .build();
      java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
      java.io.PrintStream saved = System.out;
      System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
      try {
        ClientUtils.executeProgram(new DefaultExecutorServiceLoader(), conf, program, false,
            false);
      } finally {
        System.setOut(saved);
        RunCommand.ranAsFlinkProgram = false;
      }
      String out = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
      assertThat(out).contains("locus run: starting from")
          .contains("Flink the Flink cluster of this program (execution.target remote)")
          .contains("checkpoints the cluster's execution.checkpointing.dir");
      String jobId = out.lines().filter(l -> l.startsWith("locus run: job ")).findFirst()
          .orElseThrow(() -> new AssertionError(out))
          .replaceAll("^locus run: job (\\w+) submitted.*$", "$1");
      JsonNode jobs = get(rest, "/jobs/overview");
      assertThat(jobs.toString()).contains(jobId).contains("locus-scheduler");
      // cancel it before the MiniCluster closes (quiet logs)
      HttpClient.newHttpClient().send(HttpRequest.newBuilder(rest.resolve("/jobs/" + jobId
              + "?mode=cancel")).method("PATCH", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.discarding());
      // Best effort, not a check (quiet logs): carries on after 30 s, so not Await.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!get(rest, "/jobs/" + jobId).path("state").asText().equals("CANCELED")
          && System.nanoTime() < deadline) {
        LockSupport.parkNanos(100_000_000L); // polling, deadline-bounded
      }
    }
  }

  private static JsonNode get(URI rest, String path) {
    try {
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(rest.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
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
  void checkpointsAndSavepointsDefaultUnderTheStateDir() {
    CommandLine cl = LocusCli.commandLine();
    CommandLine.ParseResult pr = cl.parseArgs("run", "--bootstrap-servers", "h:1",
        "--state-dir", "/var/lib/locus");
    RunCommand cmd = (RunCommand) pr.subcommand().commandSpec().userObject();
    assertThat(cmd.checkpoints()).isEqualTo(java.nio.file.Path.of("/var/lib/locus/checkpoints"));
    assertThat(cmd.savepoints()).isEqualTo(java.nio.file.Path.of("/var/lib/locus/savepoints"));
    assertThat(cmd.options().checkpointDir()).isEqualTo(cmd.checkpoints());
    assertThat(cmd.restorePoint().isFresh()).isTrue();
  }
}
