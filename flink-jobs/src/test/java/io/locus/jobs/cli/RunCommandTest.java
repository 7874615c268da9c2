package io.locus.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.kafka.EmbeddedKafka;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus run} as an operator meets it: one line saying what starts where (with the REST
 * port it really bound), a fast one-line failure naming an address it cannot reach, and a logged
 * stop with a savepoint.
 */
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
  void detachedAndABadFlinkAddressAreBadArguments() {
    Console a = new Console();
    assertThat(a.cl.execute("run", "--bootstrap-servers", "h:1", "--detached")).isEqualTo(2);
    assertThat(a.err.toString()).contains("--detached and --no-detached need --flink-rest");
    Console b = new Console();
    assertThat(b.cl.execute("run", "--bootstrap-servers", "h:1", "--flink-rest", "jobmanager"))
        .isEqualTo(2);
    assertThat(b.err.toString()).contains("--flink-rest: expected HOST:PORT");
  }

  @Test
  void aLocalRunSaysWhatStartsWhereAndLogsItsStopWithASavepoint(@TempDir Path dir)
      throws Exception {
    Console c = new Console();
    CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> c.cl.execute("run",
        "--bootstrap-servers", kafka.bootstrapServers(), "--state-dir", dir.toString(),
        "--rest-port", "0", "--checkpoint-interval", "PT1S", "--state-backend", "hashmap",
        "--pool-policy", "a=GCC", "--pool-policy", "b=FA", "--transactional-id-prefix",
        "run-command-test"));
    await(() -> c.out().contains(" running; web UI "), Duration.ofSeconds(60), c, run);

    String start = c.out().lines().filter(l -> l.startsWith("locus run: starting from"))
        .findFirst().orElseThrow();
    assertThat(c.out().lines().filter(l -> l.startsWith("locus run: starting from")).count())
        .isEqualTo(1);
    assertThat(start).contains("empty state").contains("Kafka " + kafka.bootstrapServers())
        .contains("checkpoints " + dir.resolve("checkpoints").toAbsolutePath())
        .contains("delivery exactly-once").contains("*=MCH, a=GCC, b=FA");
    Matcher m = Pattern.compile("Flink (http://[^:]+:(\\d+)) \\(embedded MiniCluster\\)")
        .matcher(start);
    assertThat(m.find()).as(start).isTrue();
    int port = Integer.parseInt(m.group(2));
    assertThat(port).as("the real port, not --rest-port 0").isPositive();
    String jobId = c.out().lines().filter(l -> l.contains(" running; web UI ")).findFirst()
        .orElseThrow().replaceAll("^locus run: job (\\w+) running.*$", "$1");

    // The printed address is the job's REST API; once it has a checkpoint, stop it as SIGTERM does.
    URI rest = URI.create(m.group(1));
    await(() -> get(rest, "/jobs/" + jobId + "/checkpoints").path("counts").path("completed")
        .asInt() > 0, Duration.ofSeconds(60), c, run);
    assertThat(get(rest, "/jobs/overview").toString()).contains(jobId).contains("RUNNING");
    RunCommand cmd = (RunCommand) c.cl.getSubcommands().get("run").getCommand();
    cmd.stopHook.run();

    assertThat(run.get(60, TimeUnit.SECONDS)).isZero();
    Path savepoints = dir.resolve("savepoints").toAbsolutePath();
    assertThat(c.out()).contains("locus run: shutting down: stopping job " + jobId
        + " with a savepoint into " + savepoints);
    assertThat(c.out()).containsPattern("locus run: savepoint done: \\S+savepoint-\\S+; job stopped")
        .contains("locus run: job " + jobId + " ended");
    try (Stream<Path> s = Files.list(savepoints)) {
      assertThat(s.filter(p -> Files.isRegularFile(p.resolve("_metadata")))).hasSize(1);
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

  private static void await(BooleanSupplier condition, Duration timeout, Console c,
      CompletableFuture<Integer> run) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (run.isDone() || System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + " (run "
            + (run.isDone() ? "ended: " + run.join() : "still going") + ")\nout:\n" + c.out()
            + "\nerr:\n" + c.err);
      }
      LockSupport.parkNanos(100_000_000L); // polling, deadline-bounded
    }
  }
}
