package io.locus.agent.real;

import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import io.locus.agent.NodeAgent;
import io.locus.agent.TaskExecutor;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks as processes from the agent's allow-listed {@link TaskTemplate}s.
 *
 * <p>Each run gets its own working directory {@code <work-dir>/<task>.<attempt>.<random>} with
 * {@code out/} (the {@code {output}} placeholder), {@code tmp/} ({@code TMPDIR}), and the
 * process's {@code stdout} and {@code stderr} files. The process starts without a shell
 * ({@link ProcessBuilder} with the expanded argument list), stdin from /dev/null, in that
 * directory, with a clean environment (unless {@code inherit-env}): PATH, the configured and the
 * template's variables, HOME and TMPDIR in the work dir, and LOCUS_TASK_ID, LOCUS_ATTEMPT,
 * LOCUS_JOB_ID, LOCUS_NODE, LOCUS_POOL, LOCUS_WORK_DIR, LOCUS_OUTPUT_DIR.
 *
 * <p>The result carries the exit code and the tail of stderr. A run that outlives its timeout is
 * stopped and reported with exit code {@link NodeAgent#ABORTED_EXIT_CODE}. Stopping (cancel,
 * timeout, shutdown) sends SIGTERM to the process and every descendant, then SIGKILL to whatever is
 * still alive after the kill grace period.
 *
 * <p>The last {@code keep-work-dirs} finished work directories are kept for inspection (older ones,
 * including those of a previous run of the agent, are deleted).
 *
 * <p><b>Seam for shrinking (issue 5).</b> {@link #process(String)} and {@link #workDir(String)}
 * reach a running attempt's process and directory: a shrink would tell the task its new end there
 * (a control file or a signal, by template convention) and acknowledge the position it reached.
 */
public final class ProcessTaskExecutor implements TaskExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessTaskExecutor.class);
  public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

  private final RealAgentConfig config;
  private final DiskCache disk;
  private final ExecutorService launcher;
  private final AgentScheduler scheduler;
  private final Path workRoot;
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  /** Every process (and descendant) started and maybe still alive, for the final sweep. */
  private final Set<ProcessHandle> spawned = ConcurrentHashMap.newKeySet();
  private final Deque<Path> finishedDirs = new ArrayDeque<>();
  private final Map<String, Path> dirOfKey = new LinkedHashMap<>();

  public ProcessTaskExecutor(RealAgentConfig config, DiskCache disk, ExecutorService launcher,
      AgentScheduler scheduler) {
    this.config = config;
    this.disk = disk;
    this.launcher = launcher;
    this.scheduler = scheduler;
    this.workRoot = config.workDir().toAbsolutePath();
    try {
      Files.createDirectories(workRoot);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the work directory " + workRoot, e);
    }
    adoptOldWorkDirs();
  }

  /** Work dirs of a previous run count against the retention, oldest first. */
  private void adoptOldWorkDirs() {
    List<Path> old = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(workRoot)) {
      for (Path p : ds) {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          old.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + workRoot, e);
    }
    old.sort(Comparator.comparing(p -> p.toFile().lastModified()));
    synchronized (finishedDirs) {
      old.forEach(this::retain);
    }
  }

  @Override
  public Cancellable run(String node, PlaceTask task, IntConsumer done) {
    return execute(node, task, r -> done.accept(r.exitCode()));
  }

  @Override
  public Cancellable execute(String node, PlaceTask task, Consumer<Result> done) {
    String key = NodeAgent.taskKey(task.getTaskId(), task.getAttempt());
    Run run = new Run(key, node, task, done);
    runs.put(key, run);
    try {
      launcher.execute(run::start);
    } catch (RejectedExecutionException e) {
      runs.remove(key, run);
      LOG.debug("{}: not starting {}: shutting down", node, key);
    }
    return run::cancel;
  }

  /** The running process of a task attempt ("taskId#attempt"), if it runs now. */
  public Optional<ProcessHandle> process(String taskKey) {
    Run r = runs.get(taskKey);
    Process p = r == null ? null : r.process;
    return p == null ? Optional.empty() : Optional.of(p.toHandle());
  }

  /** The work directory of a task attempt: running, or finished and still kept. */
  public Optional<Path> workDir(String taskKey) {
    Run r = runs.get(taskKey);
    if (r != null && r.workDir != null) {
      return Optional.of(r.workDir);
    }
    synchronized (finishedDirs) {
      return Optional.ofNullable(dirOfKey.get(taskKey));
    }
  }

  public TaskTemplate templateFor(PlaceTask task) {
    String name = task.getTemplate() != null ? task.getTemplate() : config.defaultTemplate();
    return name == null ? null : config.templates().get(name);
  }

  /**
   * Stops every process still alive: SIGTERM, up to the kill grace for them to exit, then SIGKILL.
   * For shutdown, after the agent cancelled its tasks.
   */
  public void stopAll() {
    for (Run r : runs.values()) {
      r.cancel();
    }
    long deadline = System.nanoTime() + config.killGrace().toNanos();
    for (ProcessHandle h : List.copyOf(spawned)) {
      h.destroy();
    }
    // isAlive, re-checked every few ms: onExit of a grandchild is polled by the JDK with growing
    // intervals, which would stretch every shutdown to the whole grace period.
    while (spawned.stream().anyMatch(ProcessTaskExecutor::isRunning)
        && System.nanoTime() < deadline) {
      LockSupport.parkNanos(5_000_000);
    }
    for (ProcessHandle h : List.copyOf(spawned)) {
      if (isRunning(h)) {
        LOG.warn("process {} ignored SIGTERM for {}; killing it", h.pid(), config.killGrace());
        h.destroyForcibly();
      }
      spawned.remove(h);
    }
  }

  private void retain(Path dir) {
    finishedDirs.addLast(dir);
    while (finishedDirs.size() > config.keepWorkDirs()) {
      Path old = finishedDirs.removeFirst();
      dirOfKey.values().remove(old);
      DiskCache.deleteTree(old);
    }
  }

  private static String safeName(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 80; i++) {
      char c = s.charAt(i);
      b.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' ? c : '_');
    }
    return b.length() == 0 ? "task" : b.toString();
  }

  /** One run of one task attempt. */
  private final class Run {
    final String key;
    final String node;
    final PlaceTask task;
    final Consumer<Result> done;
    volatile Process process;
    volatile Path workDir;
    volatile boolean timedOut;
    private boolean cancelled;
    private boolean finished;
    private Cancellable timeout = Cancellable.NONE;

    Run(String key, String node, PlaceTask task, Consumer<Result> done) {
      this.key = key;
      this.node = node;
      this.task = task;
      this.done = done;
    }

    void start() {
      synchronized (this) {
        if (cancelled) {
          return;
        }
      }
      TaskTemplate t = templateFor(task);
      if (t == null) {
        // The guard refuses such decisions; reaching here means the config changed under it.
        end(new Result(NodeAgent.ABORTED_EXIT_CODE, "no template " + task.getTemplate()));
        return;
      }
      Path wd;
      try {
        wd = Files.createDirectory(workRoot.resolve(safeName(task.getTaskId()) + "."
            + task.getAttempt() + "." + UUID.randomUUID().toString().substring(0, 8)));
        workDir = wd;
        Files.createDirectory(wd.resolve("out"));
        Files.createDirectory(wd.resolve("tmp"));
      } catch (IOException e) {
        end(new Result(NodeAgent.ABORTED_EXIT_CODE, "cannot create a work directory: " + e));
        return;
      }
      List<String> inputs = new ArrayList<>();
      try {
        for (InputPlan in : task.getInputs()) {
          inputs.add(disk.inputPath(key, in.getFileId()).toString());
        }
      } catch (IOException e) {
        finishDir();
        end(new Result(NodeAgent.ABORTED_EXIT_CODE, e.getMessage()));
        return;
      }
      Path out = wd.resolve("out");
      List<String> argv = t.expand(new TaskTemplate.Context(inputs, task.getArgs(),
          out.toString(), wd.toString(), task.getTaskId(), task.getAttempt(), task.getJobId(),
          node, config.agent().pool(), task.getComputeSeconds()));
      ProcessBuilder pb = new ProcessBuilder(argv)
          .directory(wd.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(wd.resolve("stdout").toFile())
          .redirectError(wd.resolve("stderr").toFile());
      Map<String, String> env = pb.environment();
      if (!config.inheritEnv()) {
        env.clear();
      }
      env.putIfAbsent("PATH", DEFAULT_PATH);
      env.putAll(config.taskEnv());
      env.putAll(t.env());
      env.put("HOME", wd.toString());
      env.put("TMPDIR", wd.resolve("tmp").toString());
      env.put("LOCUS_TASK_ID", task.getTaskId());
      env.put("LOCUS_ATTEMPT", Integer.toString(task.getAttempt()));
      env.put("LOCUS_JOB_ID", task.getJobId());
      env.put("LOCUS_NODE", node);
      env.put("LOCUS_POOL", config.agent().pool());
      env.put("LOCUS_WORK_DIR", wd.toString());
      env.put("LOCUS_OUTPUT_DIR", out.toString());
      Process p;
      synchronized (this) {
        if (cancelled) {
          finishDir();
          return;
        }
        try {
          p = pb.start();
        } catch (IOException e) {
          finishDir();
          end(new Result(NodeAgent.ABORTED_EXIT_CODE, "cannot start " + argv.get(0) + ": "
              + e.getMessage()));
          return;
        }
        process = p;
        spawned.add(p.toHandle());
      }
      Duration limit = t.timeout() != null ? t.timeout() : config.taskTimeout();
      LOG.debug("{}: {} started pid {}: {}", node, key, p.pid(), argv);
      synchronized (this) {
        timeout = scheduler.schedule(limit.toNanos(), () -> {
          timedOut = true;
          LOG.info("{}: {} timed out after {}", node, key, limit);
          kill();
        });
      }
      p.onExit().thenRunAsync(() -> exited(p, limit), launcher);
    }

    private void exited(Process p, Duration limit) {
      synchronized (this) {
        timeout.cancel();
      }
      spawned.remove(p.toHandle());
      int code = p.exitValue();
      String tail = stderrTail(workDir.resolve("stderr"));
      finishDir();
      Result r;
      if (timedOut) {
        r = new Result(NodeAgent.ABORTED_EXIT_CODE, "timed out after " + limit + suffix(tail));
      } else if (code == 0) {
        r = new Result(0, tail.isEmpty() ? null : tail);
      } else {
        r = new Result(code, "exit code " + code + suffix(tail));
      }
      end(r);
    }

    private String suffix(String tail) {
      return tail.isEmpty() ? "" : "; stderr: " + tail;
    }

    private void end(Result r) {
      synchronized (this) {
        if (cancelled || finished) {
          return;
        }
        finished = true;
      }
      runs.remove(key, this);
      done.accept(r);
    }

    private void finishDir() {
      Path wd = workDir;
      if (wd != null) {
        synchronized (finishedDirs) {
          dirOfKey.remove(key);
          dirOfKey.put(key, wd);
          retain(wd);
        }
      }
      runs.remove(key, this);
    }

    void cancel() {
      synchronized (this) {
        if (finished || cancelled) {
          return;
        }
        cancelled = true;
      }
      runs.remove(key, this);
      kill();
    }

    /** SIGTERM to the process and its descendants now, SIGKILL to survivors after the grace. */
    private void kill() {
      Process p = process;
      if (p == null) {
        return;
      }
      List<ProcessHandle> all = new ArrayList<>();
      // Descendants first, while they are still the process's (an orphan is re-parented away).
      p.descendants().forEach(all::add);
      all.add(p.toHandle());
      spawned.addAll(all);
      for (ProcessHandle h : all) {
        h.destroy();
      }
      scheduler.schedule(config.killGrace().toNanos(), () -> {
        for (ProcessHandle h : all) {
          if (isRunning(h)) {
            LOG.warn("{}: pid {} of {} ignored SIGTERM; killing it", node, h.pid(), key);
            h.destroyForcibly();
          }
        }
      });
      for (ProcessHandle h : all) {
        h.onExit().thenRun(() -> spawned.remove(h));
      }
    }
  }

  /**
   * Whether the process still runs. A zombie does not: an orphaned descendant that exited waits
   * for its new parent (often PID 1) to reap it, and {@link ProcessHandle#isAlive()} says true
   * until then.
   */
  public static boolean isRunning(ProcessHandle h) {
    if (!h.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
      // "pid (comm) S ...": the state follows the last ')' (comm may contain one).
      int close = stat.lastIndexOf(')');
      return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return h.isAlive();
    }
  }

  /** The last bytes of stderr as text, trimmed; "" when there are none. */
  String stderrTail(Path stderr) {
    int max = config.stderrTailBytes();
    if (max <= 0) {
      return "";
    }
    try (FileChannel ch = FileChannel.open(stderr, StandardOpenOption.READ)) {
      long size = ch.size();
      long from = Math.max(0, size - max);
      ByteBuffer buf = ByteBuffer.allocate((int) (size - from));
      ch.read(buf, from);
      buf.flip();
      String s = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(buf).toString().strip();
      return from > 0 ? "..." + s : s;
    } catch (IOException e) {
      return "";
    }
  }
}
