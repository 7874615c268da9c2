package io.locus.cli.bench;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoWorkload;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code locus bench --real-agents}: real agent processes ({@code locus agent real}, one YAML
 * config each) run every task of a run; the bench publishes all of them at once and measures
 * tasks/s from the first publish to the last COMPLETED it reads, and each task's arrival →
 * decision-visible and arrival → COMPLETED latency. Template {@code true}: {@code /bin/true}, its
 * one small input already in every node's cache (the orchestration's own cost). Template
 * {@code sha256}: {@code sha256sum} over 1–3 inputs staged from a generated storage directory and
 * from peers (the demo's real workload). Each agent holds {@code queueDepth} placements beyond its
 * slots in its local queue ({@code tasks.queue-depth}), so a slot starts its next task without
 * waiting for a scheduler round trip.
 */
public final class RealAgentsBench {
  private static final int TRUE_FILES = 16;
  private static final int SHA_FILES = 100;
  /**
   * The agents' JVM options: a small heap, and C1 only (node-agent/README.md, "Running many short
   * tasks"): an agent's per-task Java work is small, and C2 compiling the Kafka clients cost more
   * agent CPU than it saves over a run of tens of seconds.
   */
  static final List<String> AGENT_JVM = List.of("-Xmx512m", "-XX:TieredStopAtLevel=1");

  /**
   * One bench setup. {@code queueDepth} null: the agent's own default (no {@code
   * tasks.queue-depth} in its config); {@code checkpoint} null: the bench's own interval (0.5 s
   * exactly-once, 5 s at-least-once). {@code taskSeconds}: template {@code sleep} only.
   */
  public record Config(String policy, DeliveryMode delivery, List<Integer> tasks,
      String template, int agents, int slots, Integer queueDepth, long seed, Duration timeout,
      Duration checkpoint, double taskSeconds) {}

  /** One run's figures. */
  public record Row(String policy, String delivery, String template, int tasks, long completed,
      double seconds, double tasksPerSecond, double placeP50Ms, double placeP99Ms,
      double doneP50Ms, double doneP99Ms, double doneMaxMs, double slotUse,
      double agentCpuMsPerTask, double taskCpuMsPerTask, double benchCpuMsPerTask) {}

  private RealAgentsBench() {}

  /** Runs every --tasks count; prints a table and writes real.csv. True if every task completed. */
  public static boolean run(Config cfg, Path out, PrintStream o) throws Exception {
    List<Row> rows = new ArrayList<>();
    boolean ok = true;
    for (int n : cfg.tasks()) {
      Path dir = Files.createTempDirectory("locus-bench-real-");
      try {
        Row r = runOne(cfg, n, dir, out.resolve("logs"), o);
        rows.add(r);
        ok &= r.completed() == n;
      } finally {
        deleteTree(dir);
      }
    }
    o.println();
    o.println("== locus bench --real-agents: " + cfg.agents() + " agents x " + cfg.slots()
        + " slots, queue depth " + depthLabel(cfg) + ", checkpoints every "
        + checkpoint(cfg) + " ==");
    o.printf(Locale.ROOT, "%-6s %-14s %-8s %7s %9s %8s %9s %11s %11s %10s %10s %10s %9s %s%n",
        "policy", "delivery", "template", "tasks", "completed", "wall s", "tasks/s", "place p50",
        "place p99", "done p50", "done p99", "done max", "slot use",
        "CPU ms/task: agents + task processes + scheduler/broker/bench");
    List<String> csv = new ArrayList<>();
    csv.add("policy,delivery,template,agents,slots,queue_depth,checkpoint_ms,tasks,completed,"
        + "seconds,tasks_per_s,place_p50_ms,place_p99_ms,done_p50_ms,done_p99_ms,done_max_ms,"
        + "slot_use,agent_cpu_ms_per_task,task_cpu_ms_per_task,bench_cpu_ms_per_task");
    for (Row r : rows) {
      o.printf(Locale.ROOT, "%-6s %-14s %-8s %7d %9d %8.2f %9.1f %9.1fms %9.1fms %8.1fms "
              + "%8.1fms %8.1fms %9s %.2f + %.2f + %.2f = %.2f%n", r.policy(), r.delivery(), r.template(), r.tasks(),
          r.completed(), r.seconds(), r.tasksPerSecond(), r.placeP50Ms(), r.placeP99Ms(),
          r.doneP50Ms(), r.doneP99Ms(), r.doneMaxMs(), Double.isNaN(r.slotUse()) ? "-"
              : String.format(Locale.ROOT, "%.1f %%", 100 * r.slotUse()), r.agentCpuMsPerTask(),
          r.taskCpuMsPerTask(), r.benchCpuMsPerTask(), r.agentCpuMsPerTask()
              + r.taskCpuMsPerTask() + r.benchCpuMsPerTask());
      csv.add(String.format(Locale.ROOT,
          "%s,%s,%s,%d,%d,%s,%d,%d,%d,%.3f,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.3f,%.3f,%.3f",
          r.policy(),
          r.delivery(), r.template(), cfg.agents(), cfg.slots(), depthLabel(cfg),
          checkpoint(cfg).toMillis(), r.tasks(), r.completed(), r.seconds(), r.tasksPerSecond(),
          r.placeP50Ms(), r.placeP99Ms(), r.doneP50Ms(), r.doneP99Ms(), r.doneMaxMs(),
          r.slotUse(), r.agentCpuMsPerTask(), r.taskCpuMsPerTask(), r.benchCpuMsPerTask()));
    }
    Files.write(out.resolve("real.csv"), csv);
    o.println("Wrote " + out.resolve("real.csv"));
    return ok;
  }

  private static Row runOne(Config cfg, int n, Path dir, Path logDir, PrintStream o)
      throws Exception {
    String pool = "bench-real-" + cfg.policy().toLowerCase(Locale.ROOT);
    boolean sha = cfg.template().equals("sha256");
    String template = switch (cfg.template()) {
      case "sha256" -> "checksum";
      case "sleep" -> "sleep";
      default -> "noop";
    };
    Path storage = dir.resolve("storage");
    List<JobSubmitted> jobs = jobs(pool, n, sha, template, cfg.seed());
    if (sha) {
      DemoWorkload.writeStorage(storage, DemoWorkload.Spec.real(n, SHA_FILES, cfg.seed()));
    } else {
      Files.createDirectories(storage);
    }
    SchedulerConfig.PolicySpec spec = new SchedulerConfig.PolicySpec(cfg.policy(), Map.of());
    SchedulerConfig sc = new SchedulerConfig(spec, Map.of(pool, spec), 1000, 3);
    boolean eo = cfg.delivery() == DeliveryMode.EXACTLY_ONCE;
    Duration cp = checkpoint(cfg);
    o.printf(Locale.ROOT, "%n== real agents: %s %s, %d tasks of template %s, %d agents x %d "
        + "slots, queue depth %s, checkpoints every %s ==%n", cfg.policy(),
        cfg.delivery().cliName(), n, cfg.template(), cfg.agents(), cfg.slots(), depthLabel(cfg),
        cp);
    List<AgentProcess> agents = new ArrayList<>();
    try (EmbeddedLocus locus = EmbeddedLocus.start(sc, cfg.delivery(), cp);
        PlacementWatcher watcher = new PlacementWatcher(locus.bootstrapServers(), Set.of(pool),
            n, eo)) {
      try {
        for (int i = 0; i < cfg.agents(); i++) {
          String node = pool + "-node-" + i;
          Path data = dir.resolve(node);
          if (!sha) {
            preloadTrueInputs(data.resolve("cache"));
          }
          Path yaml = dir.resolve(node + ".yaml");
          Files.writeString(yaml, yaml(pool, node, cfg.slots(), cfg.queueDepth(), data, storage,
              locus.bootstrapServers(), eo, cfg.taskSeconds()));
          agents.add(AgentProcess.start("real agent " + node, AGENT_JVM,
              List.of("real", "--config", yaml.toString(), "--stats-interval", "PT0S"),
              logDir.resolve("real-" + node + "-" + n + ".log")));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (watcher.registeredSlots(pool) < (long) cfg.agents() * cfg.slots()) {
          agents.forEach(AgentProcess::checkAlive);
          locus.checkJobAlive();
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("real agents did not register within 120 s; end of "
                + agents.get(0).log() + ":\n" + agents.get(0).tail());
          }
          LockSupport.parkNanos(100_000_000L); // polling a condition with a deadline
        }
        long first;
        ProcCpu[] cpuBefore;
        try (KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
          cpuBefore = cpu(agents);
          first = System.nanoTime();
          for (int s = 0; s < n; s++) {
            JobSubmitted j = jobs.get(s);
            j.setSubmitTimeMs(System.currentTimeMillis());
            watcher.published(s, System.nanoTime());
            producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
                Topics.JOB_ARRIVALS.key(pool), Topics.JOB_ARRIVALS.value(j)));
          }
          producer.flush();
        }
        deadline = System.nanoTime() + cfg.timeout().toNanos();
        long nextReport = System.nanoTime() + 2_000_000_000L;
        while (watcher.completed() < n && System.nanoTime() < deadline) {
          if (System.nanoTime() > nextReport) {
            agents.forEach(AgentProcess::checkAlive);
            locus.checkJobAlive();
            o.printf(Locale.ROOT, "   %.1fs: placed %d, completed %d of %d%n",
                (System.nanoTime() - first) / 1e9, watcher.placed(), watcher.completed(), n);
            nextReport = System.nanoTime() + 2_000_000_000L;
          }
          LockSupport.parkNanos(10_000_000L); // polling a condition with a deadline
        }
        ProcCpu[] cpuUsed = cpu(agents);
        for (int i = 0; i < cpuUsed.length; i++) {
          cpuUsed[i] = cpuUsed[i].minus(cpuBefore[i]);
        }
        long last = watcher.lastCompletedNanos();
        long completed = watcher.completed();
        double secs = completed == 0 ? Double.NaN : (last - first) / 1e9;
        long[] miss = new long[1];
        long[] place = watcher.latencies(0, n, miss);
        long[] done = watcher.completionLatencies(0, n, miss);
        // Only sleep tasks have a known length: their busy slot-seconds over the run's.
        double slotUse = template.equals("sleep") && completed > 0
            ? completed * cfg.taskSeconds() / ((double) cfg.agents() * cfg.slots() * secs)
            : Double.NaN;
        Row r = new Row(cfg.policy(), cfg.delivery().cliName(), cfg.template(), n, completed,
            secs, completed / secs, StepResult.quantileMs(place, 0.5),
            StepResult.quantileMs(place, 0.99), StepResult.quantileMs(done, 0.5),
            StepResult.quantileMs(done, 0.99), StepResult.quantileMs(done, 1.0), slotUse,
            perTask(agentsSelf(cpuUsed), completed), perTask(agentsChildren(cpuUsed), completed),
            perTask(cpuUsed[cpuUsed.length - 1].selfMs(), completed));
        o.printf(Locale.ROOT, "   %d of %d completed in %.2f s: %.1f tasks/s%n", completed, n,
            secs, r.tasksPerSecond());
        return r;
      } finally {
        for (AgentProcess a : agents) {
          a.close();
        }
      }
    }
  }

  /**
   * CPU so far of each agent process, then of this JVM last (the scheduler job, the broker and the
   * bench's own publisher and watcher share it).
   */
  private static ProcCpu[] cpu(List<AgentProcess> agents) {
    ProcCpu[] c = new ProcCpu[agents.size() + 1];
    for (int i = 0; i < agents.size(); i++) {
      c[i] = ProcCpu.of(agents.get(i).pid());
    }
    c[agents.size()] = ProcCpu.of(ProcessHandle.current().pid());
    return c;
  }

  private static long agentsSelf(ProcCpu[] c) {
    long ms = 0;
    for (int i = 0; i < c.length - 1; i++) {
      ms += c[i].selfMs();
    }
    return ms;
  }

  private static long agentsChildren(ProcCpu[] c) {
    long ms = 0;
    for (int i = 0; i < c.length - 1; i++) {
      ms += c[i].childrenMs();
    }
    return ms;
  }

  private static double perTask(long ms, long tasks) {
    return tasks == 0 ? Double.NaN : (double) ms / tasks;
  }

  /** The checkpoint interval of a run: the configured one, else the bench's own. */
  static Duration checkpoint(Config cfg) {
    if (cfg.checkpoint() != null) {
      return cfg.checkpoint();
    }
    return cfg.delivery() == DeliveryMode.EXACTLY_ONCE ? Duration.ofMillis(500)
        : Duration.ofSeconds(5);
  }

  private static String depthLabel(Config cfg) {
    return cfg.queueDepth() == null ? "(agent default)" : Integer.toString(cfg.queueDepth());
  }

  /** The run's jobs, ids ending in -j<seq>. */
  static List<JobSubmitted> jobs(String pool, int n, boolean sha, String template, long seed) {
    List<JobSubmitted> out = new ArrayList<>(n);
    if (sha) {
      List<JobSubmitted> demo = DemoWorkload.generate(pool, DemoWorkload.Spec.real(n, SHA_FILES,
          seed));
      for (int s = 0; s < n; s++) {
        out.add(JobSubmitted.newBuilder(demo.get(s)).setJobId(pool + "-j" + s).build());
      }
      return out;
    }
    for (int s = 0; s < n; s++) {
      out.add(JobSubmitted.newBuilder().setJobId(pool + "-j" + s).setPool(pool)
          .setSubmitTimeMs(0)
          .setInputs(List.of(DataUnit.newBuilder().setId(trueInput(s % TRUE_FILES))
              .setBytes(1024).build()))
          .setComputeSeconds(0)
          .setTemplate(template)
          .build());
    }
    return out;
  }

  private static String trueInput(int f) {
    return "bench-true-" + f;
  }

  /** Every /bin/true input in the node's cache before it starts: it reports them in REGISTER. */
  private static void preloadTrueInputs(Path cache) throws IOException {
    Files.createDirectories(cache);
    byte[] kb = new byte[1024];
    for (int f = 0; f < TRUE_FILES; f++) {
      Files.write(cache.resolve(trueInput(f)), kb);
    }
  }

  /**
   * One agent's config file; {@code queueDepth} becomes {@code tasks.queue-depth} (null: left
   * out, the agent's default); template {@code sleep} sleeps {@code taskSeconds}.
   */
  static String yaml(String pool, String node, int slots, Integer queueDepth, Path data,
      Path storage, String bootstrap, boolean readCommitted, double taskSeconds) {
    return String.join("\n",
        "pool: " + pool,
        "node-id: " + node,
        "slots: " + slots,
        "data-dir: " + data.toAbsolutePath(),
        "cache:",
        "  quota: 1GB",
        "storage:",
        "  root: " + storage.toAbsolutePath().toUri(),
        "kafka:",
        "  bootstrap-servers: " + bootstrap,
        "  read-committed: " + readCommitted,
        "  start-from: earliest",
        "  create-topics: false",
        "http:",
        "  bind: 127.0.0.1",
        "  port: 0",
        queueDepth == null ? "" : "tasks:",
        queueDepth == null ? "" : "  queue-depth: " + queueDepth,
        "templates:",
        "  noop:",
        "    command: [/bin/true]",
        "    max-args: 0",
        "  sleep:",
        "    command: [sleep, \"" + String.format(Locale.ROOT, "%.3f", taskSeconds) + "\"]",
        "    max-args: 0",
        "  checksum:",
        "    command: [sha256sum, \"{inputs}\"]",
        "    max-args: 0",
        "default-template: checksum",
        "");
  }

  private static void deleteTree(Path dir) {
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: best effort
    }
  }
}
