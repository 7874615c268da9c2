package io.locus.e2e.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A standalone Flink session cluster of separate processes, from the Maven Central jars on the
 * test's classpath (there is no flink-dist there): one JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and N TaskManagers ({@code TaskManagerRunner}), each
 * a child JVM with its own configuration directory ({@code config.yaml}) and log files. What
 * Flink's start scripts would compute from {@code taskmanager.memory.process.size} (the JVM's heap
 * and direct memory limits, the explicit memory and CPU settings the TaskManager insists on when
 * started without the scripts) is written out here. The classpath holds RocksDB's natives
 * (flink-statebackend-rocksdb) and Locus, so the job needs no shipped jar. Every child is killed on
 * {@link #close} and, should the test JVM die first, by a shutdown hook.
 */
final class StandaloneFlink implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String JOB_MANAGER =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  private static final String TASK_MANAGER =
      "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

  // Per TaskManager (~0.9 GB process): heap = framework + task heap; direct = framework off-heap
  // + task off-heap + network; RocksDB lives in managed memory (split between the slots).
  private static final Map<String, String> TM_MEMORY = Map.of(
      "taskmanager.memory.framework.heap.size", "128m",
      "taskmanager.memory.task.heap.size", "256m",
      "taskmanager.memory.managed.size", "128m",
      "taskmanager.memory.network.min", "64m",
      "taskmanager.memory.network.max", "64m",
      "taskmanager.memory.framework.off-heap.size", "128m",
      "taskmanager.memory.task.off-heap.size", "0m",
      "taskmanager.memory.jvm-metaspace.size", "192m",
      "taskmanager.memory.jvm-overhead.min", "128m",
      "taskmanager.memory.jvm-overhead.max", "128m");
  private static final List<String> TM_JVM = List.of("-Xmx384m", "-Xms384m",
      "-XX:MaxDirectMemorySize=192m", "-XX:MaxMetaspaceSize=192m");

  private final Path dir;
  private final int restPort;
  private final String classPath;
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private final Thread reaper = new Thread(this::killAll, "standalone-flink-reaper");
  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private StandaloneFlink(Path dir, int restPort, String classPath) {
    this.dir = dir;
    this.restPort = restPort;
    this.classPath = classPath;
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /**
   * Starts the JobManager and {@code taskManagers} TaskManagers of {@code slots} slots each, and
   * waits until every TaskManager has registered. {@code conf} adds to (or overrides) the
   * configuration every process gets.
   */
  static StandaloneFlink start(Path dir, int taskManagers, int slots, Map<String, String> conf,
      Duration timeout) throws IOException {
    return start(dir, taskManagers, slots, conf, timeout, System.getProperty("java.class.path"));
  }

  /** As above, with the processes' class path given (e.g. one without Locus on it). */
  static StandaloneFlink start(Path dir, int taskManagers, int slots, Map<String, String> conf,
      Duration timeout, String classPath) throws IOException {
    int rpcPort = freePort();
    StandaloneFlink f = new StandaloneFlink(dir, freePort(), classPath);
    try {
      Map<String, String> common = new LinkedHashMap<>();
      common.put("jobmanager.rpc.address", "localhost");
      common.put("jobmanager.rpc.port", Integer.toString(rpcPort));
      common.put("jobmanager.bind-host", "localhost");
      common.put("rest.address", "localhost");
      common.put("rest.bind-address", "localhost");
      common.put("rest.port", Integer.toString(f.restPort));
      common.put("taskmanager.host", "localhost");
      common.put("taskmanager.bind-host", "localhost");
      common.put("taskmanager.numberOfTaskSlots", Integer.toString(slots));
      common.put("taskmanager.cpu.cores", Integer.toString(slots));
      // A dead TaskManager is noticed within seconds (defaults: 10 s interval, 50 s timeout).
      common.put("heartbeat.interval", "1000");
      common.put("heartbeat.timeout", "5000");
      // Spread the job's slots over the TaskManagers, so killing one hits the job.
      common.put("taskmanager.load-balance.mode", "SLOTS");
      common.put("jobmanager.memory.process.size", "768m");
      common.put("io.tmp.dirs", dir.resolve("tmp").toString());
      common.putAll(TM_MEMORY);
      common.putAll(conf);
      Files.createDirectories(dir.resolve("tmp"));
      f.launch("jobmanager", JOB_MANAGER, common, List.of("-Xmx512m"));
      for (int i = 0; i < taskManagers; i++) {
        Map<String, String> tm = new LinkedHashMap<>(common);
        tm.put("taskmanager.resource-id", taskManagerId(i));
        f.launch(taskManagerId(i), TASK_MANAGER, tm, TM_JVM);
      }
      f.await(() -> f.registeredTaskManagers() == taskManagers, timeout,
          () -> taskManagers + " TaskManagers registered at " + f.restAddress());
      return f;
    } catch (RuntimeException | Error | IOException e) {
      f.close();
      throw e;
    }
  }

  static String taskManagerId(int i) {
    return "tm-" + i;
  }

  /** HOST:PORT of the JobManager's REST API. */
  String restAddress() {
    return "localhost:" + restPort;
  }

  /** {@code kill -9} of a TaskManager (SIGKILL on Linux: no shutdown hook, nothing flushed). */
  void killTaskManager(String id) throws InterruptedException {
    Process p = processes.get(id);
    p.destroyForcibly();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException(id + " survived SIGKILL");
    }
  }

  boolean isAlive(String id) {
    return processes.get(id).isAlive();
  }

  /** GET of the REST API; null if nothing answers (yet). */
  JsonNode get(String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(
              URI.create("http://" + restAddress() + path)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() / 100 == 2 ? JSON.readTree(r.body()) : null;
    } catch (ConnectException | java.net.http.HttpTimeoutException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  int registeredTaskManagers() {
    JsonNode tms = get("/taskmanagers");
    return tms == null ? 0 : tms.path("taskmanagers").size();
  }

  /** Waits on {@code condition} (failing with the logs' tails), also failing if a child died. */
  void await(BooleanSupplier condition, Duration timeout, Supplier<String> what) {
    // Polls the REST API.
    Await.atMost(timeout).pollEvery(Duration.ofMillis(200)).until(
        () -> what.get() + "\n" + logTails(), () -> {
          if (condition.getAsBoolean()) {
            return true;
          }
          if (!processes.get("jobmanager").isAlive()) {
            throw new AssertionError("the JobManager exited while waiting for " + what.get()
                + "\n" + logTails());
          }
          return false;
        });
  }

  /** The last lines of every child's log and output, for a failure message. */
  String logTails() {
    StringBuilder b = new StringBuilder();
    try (var files = Files.list(dir.resolve("logs"))) {
      for (Path f : files.sorted().toList()) {
        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        b.append("--- ").append(f).append(" (last 60 of ").append(lines.size()).append(" lines)\n");
        lines.subList(Math.max(0, lines.size() - 60), lines.size())
            .forEach(l -> b.append(l).append('\n'));
      }
    } catch (IOException e) {
      b.append("(logs unreadable: ").append(e).append(")");
    }
    return b.toString();
  }

  private void launch(String name, String mainClass, Map<String, String> conf, List<String> jvm)
      throws IOException {
    Path confDir = Files.createDirectories(dir.resolve("conf-" + name));
    StringBuilder yaml = new StringBuilder("# written by StandaloneFlink for " + name + "\n");
    conf.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
    Files.writeString(confDir.resolve("config.yaml"), yaml);
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Files.writeString(confDir.resolve("log4j2.properties"), String.join("\n",
        "rootLogger.level = INFO",
        "rootLogger.appenderRef.file.ref = file",
        "appender.file.type = File",
        "appender.file.name = file",
        "appender.file.fileName = " + logs.resolve(name + ".log"),
        "appender.file.layout.type = PatternLayout",
        "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
        "logger.kafka.name = org.apache.kafka",
        "logger.kafka.level = WARN",
        ""));
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvm);
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.locus");
    cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j2.properties"));
    cmd.add("-Dlog.file=" + logs.resolve(name + ".log"));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
      }
    }
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(mainClass);
    cmd.add("--configDir");
    cmd.add(confDir.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(logs.resolve(name + ".out").toFile()).start();
    processes.put(name, p);
  }

  private void killAll() {
    for (Process p : processes.values()) {
      p.destroyForcibly();
    }
    for (Process p : processes.values()) {
      try {
        p.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or ran
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
