package io.locus.cli.chaos;

import io.locus.cli.LocusCli;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.KafkaProcess;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.Secrets;
import io.locus.schemas.codec.DeadLetterCodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * One delivery mode of {@code locus chaos}: a child broker ({@link KafkaProcess}), {@code locus
 * run} as a child JVM (MiniCluster, RocksDB, checkpoints, a node secret) and simulated agents in
 * several child JVMs; a {@link JobFeed} publishes the workload while the planned failures are
 * injected as the work progresses; then the {@link DeliveryChecker} judges every task, and the
 * injections that have a verdict of their own (clock skew, forgery) are judged on the topics.
 */
final class ChaosRun {
  /** What the scheduler logs when it declares a node lost (InputGate). */
  private static final Pattern LOST = Pattern.compile("node (\\S+) lost, not heard from");
  private static final Duration START = Duration.ofSeconds(180);
  /** How far ahead the skewed node's reports are stamped (the scheduler allows 1 min). */
  static final long SKEW_MS = 3_600_000L;

  /** Settings of a run (the command's options). */
  record Settings(int tasks, int nodes, int agentProcesses, int slots, double timeScale,
      String policy, double rate, Duration nodeTimeout, Duration checkpointInterval,
      Duration timeout, long seed, int schedulerHeapMb, int agentHeapMb) {}

  /** One injected failure as it happened. */
  record Injected(String kind, double atSeconds, int atCompleted, boolean ok, String detail) {}

  /** The result of one delivery mode. */
  record Result(String delivery, int tasks, int placed, int completed, int lost,
      int effectiveDuplicates, int executedTwice, int deadLetteredCompletions, int cancels,
      int neverPlaced, int neverStarted, long schedulerCompletions, List<Injected> failures,
      List<String> nodesLost, double wallSeconds, List<String> problems, String verdict) {
    boolean passed() {
      return problems.isEmpty();
    }
  }

  private final Settings s;
  private final DeliveryMode mode;
  private final List<FailureSchedule.Planned> plan;
  private final Path dir;
  private final PrintWriter out;
  private final String pool;
  private final SplittableRandom rnd;
  private final List<Injected> injected = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  /** node -> when the scheduler declared it lost (seconds into the run). */
  private final Map<String, Double> lostNodes = new ConcurrentHashMap<>();
  /** Nodes of agent processes this run killed (their loss may be expected). */
  private final Set<String> killedNodes = ConcurrentHashMap.newKeySet();
  private final List<List<String>> groups = new ArrayList<>();
  private final List<ChildJvm> agents = new ArrayList<>();
  private final List<Boolean> gone = new ArrayList<>();
  private final List<String[]> watched = new ArrayList<>(); // kind, topic, partition, offset
  private long startNanos;
  private volatile KafkaProcess kafka;
  private volatile ChildJvm scheduler;
  private int parallelism = 1;
  private int restPort;
  private Path secret;
  private NodeKeys keys;

  ChaosRun(Settings s, DeliveryMode mode, List<FailureSchedule.Planned> plan, Path dir,
      PrintWriter out) {
    this.s = s;
    this.mode = mode;
    this.plan = plan;
    this.dir = dir;
    this.out = out;
    this.pool = "chaos-" + label(mode);
    this.rnd = new SplittableRandom(s.seed() * 31 + mode.ordinal());
  }

  static String label(DeliveryMode mode) {
    return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private void say(String line) {
    out.printf(Locale.ROOT, "chaos [%s] %6.1f s: %s%n", label(mode), seconds(), line);
    out.flush();
  }

  Result run() throws Exception {
    startNanos = System.nanoTime();
    Files.createDirectories(dir);
    Path logs = dir.resolve("logs");
    secret = dir.resolve("cluster-secret");
    byte[] raw = new byte[32];
    new SecureRandom().nextBytes(raw);
    Files.writeString(secret, HexFormat.of().formatHex(raw), StandardCharsets.UTF_8);
    restrict(secret);
    keys = new NodeKeys(Secrets.read(secret));
    restPort = Cluster.freePort();
    // Ctrl-C or SIGTERM of locus chaos: no child process may outlive it
    Thread hook = new Thread(this::closeChildren, "chaos-children");
    Runtime.getRuntime().addShutdownHook(hook);
    JobFeed feed = null;
    DeliveryChecker.Verdict v = null;
    try {
      kafka = KafkaProcess.start(dir.resolve("kafka"));
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      say("broker on " + bootstrap + "; the processes' logs in " + logs);
      scheduler = startScheduler(bootstrap, logs);
      for (int g = 0; g < s.agentProcesses(); g++) {
        List<String> nodes = new ArrayList<>();
        for (int i = g; i < s.nodes(); i += s.agentProcesses()) {
          nodes.add(pool + "-n" + i);
        }
        groups.add(nodes);
        agents.add(ChildJvm.start("agents-" + g, s.agentHeapMb(), "io.locus.agent.AgentCli",
            Cluster.agentArgs(bootstrap, pool, nodes, dir.resolve("agents-" + g), s.slots(),
                s.timeScale(), "--cluster-secret-file", secret.toString()), logs));
        gone.add(false);
      }
      scheduler.awaitLine("running", START);
      for (ChildJvm a : agents) {
        a.awaitLine("registered", START);
      }
      say(s.nodes() + " nodes in " + agents.size() + " agent processes registered; scheduler "
          + "running; publishing " + s.tasks() + " tasks at " + s.rate() + "/s");
      try (DeliveryChecker checker = new DeliveryChecker(bootstrap,
          mode == DeliveryMode.EXACTLY_ONCE)) {
        feed = new JobFeed(bootstrap, pool, s.tasks(), s.seed(), s.rate());
        drive(checker, feed);
        say("every failure injected; waiting for the last completions");
        v = checker.awaitCompletion(pool, feed.taskIds(), Duration.ofSeconds(120));
        judgeWatched(checker);
      }
    } catch (Exception | Error e) {
      problems.add("the run stopped: " + e.getMessage());
      say("FAILED: " + e);
    } finally {
      if (feed != null) {
        feed.close();
      }
      closeChildren();
      Runtime.getRuntime().removeShutdownHook(hook);
    }
    for (var e : lostNodes.entrySet()) {
      if (!killedNodes.contains(e.getKey())) {
        problems.add("live node " + e.getKey() + " declared lost at "
            + String.format(Locale.ROOT, "%.1f s", e.getValue()));
      }
    }
    for (Injected i : injected) {
      if (!i.ok()) {
        problems.add(i.kind() + " at " + String.format(Locale.ROOT, "%.1f s", i.atSeconds())
            + ": " + i.detail());
      }
    }
    if (v != null && !v.keeps(mode)) {
      problems.add("delivery: " + v.summary());
    }
    if (v == null) {
      return new Result(label(mode), s.tasks(), 0, 0, s.tasks(), 0, 0, 0, 0, 0, 0, -1,
          List.copyOf(injected), List.copyOf(lostNodes.keySet()), seconds(),
          List.copyOf(problems), "no verdict");
    }
    return new Result(label(mode), v.expected(), v.expected() - v.neverPlaced().size(),
        v.completed(), v.lost().size(), v.duplicated().size(), v.executedTwice().size(),
        v.deadLettered(), v.cancels(), v.neverPlaced().size(), v.neverStarted().size(),
        v.schedulerCompletions(), List.copyOf(injected), List.copyOf(lostNodes.keySet()),
        seconds(), List.copyOf(problems), v.summary());
  }

  private synchronized void closeChildren() {
    if (scheduler != null) {
      scheduler.close();
    }
    for (ChildJvm a : agents) {
      a.close(); // SIGKILL ends a frozen (SIGSTOP) child too
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  private static void restrict(Path file) {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException | UnsupportedOperationException e) {
      // not a POSIX file system: the secret is a throwaway of this run anyway
    }
  }

  private ChildJvm startScheduler(String bootstrap, Path logs) {
    List<String> args = Cluster.runArgs(bootstrap, dir.resolve("state"), mode, parallelism,
        restPort, "--node-timeout", s.nodeTimeout().toString(), "--node-secret-file",
        secret.toString(), "--policy", s.policy(), "--metrics-port", "off",
        // a machine busy with the other children can be slow to answer the first connection
        "--connect-timeout", "PT60S");
    int i = args.indexOf("--checkpoint-interval");
    args.set(i + 1, s.checkpointInterval().toString());
    ChildJvm c = ChildJvm.start("locus-run", s.schedulerHeapMb(), "io.locus.cli.LocusCli", args,
        logs);
    c.onLine(this::schedulerLine);
    return c;
  }

  private void schedulerLine(String line) {
    Matcher m = LOST.matcher(line);
    if (m.find()) {
      lostNodes.putIfAbsent(m.group(1), seconds());
    }
  }

  /**
   * Publishes, injects each planned failure when its share of tasks has completed, reports
   * progress every 5 s. Returns when every failure is injected and every task has a completion
   * (or the scheduler counts them all: a forged completion that counted leaves the real one
   * unread), when the work stalls (no new completion for {@link #stall}), or at the timeout.
   */
  private void drive(DeliveryChecker checker, JobFeed feed) throws Exception {
    long deadline = System.nanoTime() + s.timeout().toNanos();
    long nextProgress = 0;
    int next = 0;
    int last = -1;
    long lastChange = System.nanoTime();
    while (true) {
      checker.catchUp(Duration.ofSeconds(2));
      int done = checker.completedAny(pool);
      if (done != last) {
        last = done;
        lastChange = System.nanoTime();
      }
      if (System.nanoTime() >= nextProgress) {
        say(String.format(Locale.ROOT, "published %d/%d, completed %d, failures %d/%d%s",
            feed.published(), s.tasks(), done, next, plan.size(),
            lostNodes.isEmpty() ? "" : ", nodes lost " + lostNodes.size()));
        nextProgress = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      }
      if (next < plan.size() && done >= plan.get(next).at() * s.tasks()) {
        inject(plan.get(next).kind(), checker, done);
        next++;
        lastChange = System.nanoTime();
        continue;
      }
      var m = checker.metrics(pool);
      if (next == plan.size() && (done >= s.tasks() || m != null
          && m.getCompletions() >= s.tasks() && m.getQueueLength() == 0)) {
        return;
      }
      if (feed.done() && System.nanoTime() - lastChange > stall().toNanos()) {
        problems.add("stalled: no new completion for " + stall() + " with " + done + "/"
            + s.tasks() + " tasks completed and " + next + "/" + plan.size()
            + " failures injected");
        return;
      }
      if (System.nanoTime() > deadline) {
        problems.add("timed out after " + s.timeout() + " with " + done + "/" + s.tasks()
            + " tasks completed and " + next + "/" + plan.size() + " failures injected");
        return;
      }
      LockSupport.parkNanos(200_000_000L); // waiting for progress (deadline-bounded)
    }
  }

  /** How long without a new completion, once every job is published, counts as a stall. */
  private Duration stall() {
    Duration fourTimeouts = s.nodeTimeout().multipliedBy(4);
    return fourTimeouts.compareTo(Duration.ofMinutes(2)) > 0 ? fourTimeouts
        : Duration.ofMinutes(2);
  }

  private void inject(FailureKind kind, DeliveryChecker checker, int done) {
    double at = seconds();
    say("injecting " + kind.label() + " (" + done + " completed)");
    String detail;
    boolean ok = true;
    try {
      detail = switch (kind) {
        case SCHEDULER_KILL -> schedulerKill();
        case AGENT_KILL -> agentKill(false);
        case NODE_LOST -> agentKill(true);
        case BROKER_KILL -> brokerKill();
        case RESCALE -> rescale();
        case CLOCK_SKEW -> clockSkew(checker);
        case FORGE -> forge(checker);
      };
    } catch (Exception e) {
      ok = false;
      detail = "FAILED: " + e.getMessage();
    }
    say(kind.label() + ": " + detail);
    injected.add(new Injected(kind.label(), at, done, ok, detail));
  }

  private String schedulerKill() throws Exception {
    scheduler.kill();
    scheduler.restart();
    String from = scheduler.awaitLine("starting from", START);
    scheduler.awaitLine("running", START);
    return "killed -9 and restarted; " + restored(from);
  }

  private List<Integer> alive() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < agents.size(); i++) {
      if (!gone.get(i)) {
        out.add(i);
      }
    }
    return out;
  }

  private String agentKill(boolean forGood) throws Exception {
    List<Integer> alive = alive();
    if (forGood && alive.size() < 2) {
      throw new IllegalStateException("no agent process left to lose (one must stay)");
    }
    int g = alive.get(rnd.nextInt(alive.size()));
    ChildJvm a = agents.get(g);
    killedNodes.addAll(groups.get(g));
    a.kill();
    if (forGood) {
      gone.set(g, true);
      return "agents-" + g + " (" + groups.get(g).size() + " nodes) killed -9 for good";
    }
    a.restart();
    a.awaitLine("registered", START);
    return "agents-" + g + " (" + groups.get(g).size() + " nodes) killed -9 and restarted";
  }

  private String brokerKill() {
    String before = kafka.bootstrapServers();
    kafka.kill();
    kafka.restart();
    if (!kafka.bootstrapServers().equals(before)) {
      throw new IllegalStateException("the broker came back on " + kafka.bootstrapServers()
          + ", not " + before);
    }
    return "killed -9 and restarted on " + before;
  }

  private String rescale() throws Exception {
    Path savepoints = dir.resolve("state").resolve("savepoints");
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    var cl = LocusCli.commandLine();
    cl.setOut(new PrintWriter(o));
    cl.setErr(new PrintWriter(e));
    int rc = cl.execute("savepoint", "--rest-url", "http://127.0.0.1:" + restPort, "--stop",
        "--target-dir", savepoints.toString());
    if (rc != 0) {
      throw new IllegalStateException("locus savepoint --stop: exit " + rc + ": "
          + (o + " " + e).strip());
    }
    int exit = scheduler.awaitExit(START);
    if (exit != 0) {
      throw new IllegalStateException("locus run ended with " + exit + " after the stop");
    }
    int from = parallelism;
    parallelism = parallelism == 1 ? 2 : 1;
    scheduler = startScheduler(kafka.bootstrapServers(), dir.resolve("logs"));
    String line = scheduler.awaitLine("starting from", START);
    scheduler.awaitLine("running", START);
    if (!line.contains("savepoint")) {
      throw new IllegalStateException("the new run did not restore the savepoint: " + line);
    }
    return "stopped with a savepoint, restarted at parallelism " + parallelism + " (was " + from
        + "); " + restored(line);
  }

  /** "starting from latest … /chk-N" of locus run's start line (the settings after it cut). */
  private static String restored(String line) {
    String s = line.substring(Math.max(0, line.indexOf("starting from")));
    int bar = s.indexOf(" | ");
    return bar < 0 ? s : s.substring(0, bar);
  }

  private String liveNode() {
    List<Integer> alive = alive();
    List<String> nodes = groups.get(alive.get(rnd.nextInt(alive.size())));
    return nodes.get(rnd.nextInt(nodes.size()));
  }

  /** Sends {@code value} on {@code topic} keyed by the pool; where it was written. */
  private RecordMetadata send(String topic, byte[] value) throws Exception {
    try (KafkaProducer<byte[], byte[]> p =
        new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()))) {
      return p.send(new ProducerRecord<>(topic, pool.getBytes(StandardCharsets.UTF_8), value))
          .get();
    }
  }

  /**
   * Three heartbeats of a live node, signed with its key, stamped {@link #SKEW_MS} ahead: each
   * must be dead-lettered {@code clock}, and no other node may be declared lost (checked for the
   * whole run).
   */
  private String clockSkew(DeliveryChecker checker) throws Exception {
    String node = liveNode();
    for (int i = 0; i < 3; i++) {
      NodeReport r = NodeReport.newBuilder().setPool(pool).setNode(node)
          .setType(NodeReportType.HEARTBEAT).setTimeMs(System.currentTimeMillis() + SKEW_MS)
          .setSlots(s.slots()).setCacheCapacityBytes(0).setQueueDepth(0)
          .setSeq(Long.MAX_VALUE / 2 + i).setAdded(List.of()).setRemoved(List.of())
          .setDraining(false).setInstanceId(checker.instanceId(pool, node)).build();
      r = keys.signer(node).sign(r);
      RecordMetadata m = send(Topics.NODE_REPORTS.name(), Topics.NODE_REPORTS.value(r));
      checker.watch(m.topic(), m.partition(), m.offset());
      watched.add(new String[] {"clock-skew", m.topic(), Integer.toString(m.partition()),
          Long.toString(m.offset()), DeadLetterCodes.CLOCK});
    }
    return "3 heartbeats of " + node + " stamped " + SKEW_MS / 60_000 + " min ahead";
  }

  /**
   * Node B, signed with its own key and its own instance id, sends COMPLETED for an attempt the
   * scheduler placed on node A and that is still running (decision id, epoch and attempt read from
   * the decisions topic): the agent process of A is frozen (SIGSTOP) for a few seconds, so that
   * its placements stay unfinished while the forgery is read (simulated tasks take milliseconds;
   * without the freeze the target would usually be finished already, and refusing a completion of
   * a finished task proves nothing). The forged completion must not count: it must be
   * dead-lettered ({@link #judgeWatched}), and A's own completion must stay the effective one
   * (the delivery check).
   */
  private String forge(DeliveryChecker checker) throws Exception {
    List<Integer> alive = alive();
    if (alive.size() < 2) {
      throw new IllegalStateException("a forgery needs two live agent processes");
    }
    // freeze a process that has placements still open: one whose nodes are idle at the freeze may
    // get no new placement within the window (MCH sends work to holders, and right after a node
    // loss the re-placed work goes elsewhere), and then there is nothing to forge (a CI flake)
    checker.catchUp(Duration.ofMillis(500));
    List<Integer> busy = new ArrayList<>();
    for (DeliveryChecker.Placement p : checker.openPlacements(pool)) {
      for (int c : alive) {
        if (groups.get(c).contains(p.node()) && !busy.contains(c)) {
          busy.add(c);
        }
      }
    }
    busy.sort(null);
    List<Integer> pick = busy.isEmpty() ? alive : busy;
    int g = pick.get(rnd.nextInt(pick.size()));
    Set<String> victims = new LinkedHashSet<>(groups.get(g));
    long freezeMs = Math.min(6_000, s.nodeTimeout().toMillis() / 3);
    ChildJvm a = agents.get(g);
    killedNodes.addAll(victims); // frozen: were it declared lost, that would be no surprise
    a.signal("STOP");
    long frozen = System.nanoTime();
    try {
      long deadline = frozen + freezeMs * 1_000_000L / 2;
      while (System.nanoTime() < deadline) {
        checker.catchUp(Duration.ofMillis(500));
        List<DeliveryChecker.Placement> open = checker.openPlacements(pool);
        for (int i = open.size() - 1; i >= 0; i--) {
          DeliveryChecker.Placement p = open.get(i);
          String forger = victims.contains(p.node()) ? forgerFor(g, checker) : null;
          if (forger == null) {
            continue;
          }
          RecordMetadata m = sendForged(p, forger, checker);
          // keep A frozen until the scheduler has judged the forgery (or half the freeze is left)
          long judged = frozen + freezeMs * 1_000_000L;
          while (System.nanoTime() < judged
              && checker.deadLetterCodes(m.topic(), m.partition(), m.offset()).isEmpty()) {
            checker.catchUp(Duration.ofMillis(300));
          }
          return forger + " sent COMPLETED for " + p.decisionId() + " (placed on " + p.node()
              + ", epoch " + p.epoch() + ", its agent frozen)";
        }
        LockSupport.parkNanos(100_000_000L); // waiting for a placement on a frozen node
      }
      throw new IllegalStateException("no placement on the frozen agents-" + g + " within "
          + freezeMs / 2 + " ms to forge a completion for");
    } finally {
      a.signal("CONT");
    }
  }

  private RecordMetadata sendForged(DeliveryChecker.Placement p, String forger,
      DeliveryChecker checker) throws Exception {
    long now = System.currentTimeMillis();
    TaskEvent e = TaskEvent.newBuilder().setPool(pool).setTaskId(p.taskId())
        .setJobId(p.jobId()).setAttempt(p.attempt()).setNode(forger)
        .setType(TaskEventType.COMPLETED).setDecisionId(p.decisionId()).setEpoch(p.epoch())
        .setTimeMs(now).setStartTimeMs(now - 1).setEndTimeMs(now).setBytesLocal(0)
        .setBytesPeer(0).setBytesStorage(0).setExitCode(0)
        .setInstanceId(checker.instanceId(pool, forger)).build();
    e = keys.signer(forger).sign(e);
    RecordMetadata m = send(Topics.TASK_EVENTS.name(), Topics.TASK_EVENTS.value(e));
    checker.watch(m.topic(), m.partition(), m.offset());
    watched.add(new String[] {"forge", m.topic(), Integer.toString(m.partition()),
        Long.toString(m.offset()), null});
    return m;
  }

  /** A node of another live agent process than {@code victimGroup}, registered. */
  private String forgerFor(int victimGroup, DeliveryChecker checker) {
    for (int g : alive()) {
      if (g == victimGroup) {
        continue;
      }
      for (String n : groups.get(g)) {
        if (checker.instanceId(pool, n) != null) {
          return n;
        }
      }
    }
    return null;
  }
  /**
   * The verdicts of the injected records: each skewed report dead-lettered {@code clock}; each
   * forged completion dead-lettered (any code: it did not count). Waits up to 30 s for them.
   */
  private void judgeWatched(DeliveryChecker checker) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    Map<String[], List<String>> codes = new LinkedHashMap<>();
    do {
      checker.catchUp(Duration.ofSeconds(2));
      codes.clear();
      boolean all = true;
      for (String[] w : watched) {
        List<String> c = checker.deadLetterCodes(w[1], Integer.parseInt(w[2]),
            Long.parseLong(w[3]));
        codes.put(w, c);
        all &= !c.isEmpty();
      }
      if (all) {
        break;
      }
      LockSupport.parkNanos(200_000_000L); // waiting for dead letters (deadline-bounded)
    } while (System.nanoTime() < deadline);
    Set<String> seen = new LinkedHashSet<>();
    for (var e : codes.entrySet()) {
      String[] w = e.getKey();
      String where = w[0] + " record " + w[1] + "/" + w[2] + "@" + w[3];
      if (w[0].equals("forge")) {
        seen.add(e.getValue().isEmpty() ? where + ": the forged completion COUNTED (accepted,"
            + " not dead-lettered)" : where + ": did not count (dead-lettered " + e.getValue()
            + ")");
        if (e.getValue().isEmpty()) {
          problems.add(where + ": the forged completion was accepted");
        }
      } else if (e.getValue().stream().noneMatch(c -> c.startsWith(w[4] + ":"))) {
        problems.add(where + ": expected a '" + w[4] + "' dead letter, got " + e.getValue());
        seen.add(where + ": dead letters " + e.getValue());
      } else {
        seen.add(where + ": dead-lettered " + e.getValue());
      }
    }
    seen.forEach(this::say);
  }
}
