package io.locus.agent.real;

import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import io.locus.agent.NodeAgent;
import io.locus.agent.RangeRun;
import io.locus.agent.TaskExecutor;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
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
 * LOCUS_JOB_ID, LOCUS_NODE, LOCUS_POOL, LOCUS_WORK_DIR, LOCUS_OUTPUT_DIR, LOCUS_INPUTS,
 * LOCUS_OUTPUTS and LOCUS_OUTPUT_SIZES (one per line; see {@link #pathLists}).
 *
 * <p>After an exit 0, the task's declared outputs are taken from {@code out/} (missing ones fail
 * the run), staged out to a writable {@code file:} storage root and landed in the cache's
 * {@code .incoming} for the agent: see {@link OutputFiles}. {@code {output:N}} is the path of the
 * N-th.
 *
 * <p>The result carries the exit code and the tail of stderr. A run that outlives its timeout is
 * stopped and reported with exit code {@link NodeAgent#ABORTED_EXIT_CODE}. Stopping (cancel,
 * timeout, shutdown) sends SIGTERM to the process and every descendant, then SIGKILL to whatever is
 * still alive after the kill grace period.
 *
 * <p><b>Event-range tasks</b> (issue 5) run their template once per batch of
 * {@link TaskSettings#eventBatch()} events, one batch after the other, in one work directory
 * (stdout and stderr are appended), with the placeholders {@code {dataset}}, {@code {batch-start}},
 * {@code {batch-end}} and the variables LOCUS_DATASET, LOCUS_BATCH_START, LOCUS_BATCH_END. A batch
 * is done when its process exits 0; a non-zero exit or a timeout (per batch) ends the task FAILED
 * with the batches before it processed. A suspend kills the batch in progress (it is lost: the task
 * stops at its start); a shrink lets it finish and stops at max(newEnd, its end). The agent stages
 * no data for the range: the process reads its own events.
 *
 * <p>The last {@code work.keep} finished work directories are kept for inspection (older ones,
 * including those of a previous run of the agent, are deleted, or renamed for a later run when
 * clean; see {@link WorkDirs}).
 *
 * <p>Why ~740 lines in one class: starting, watching and stopping a process tree (timeouts, the
 * kill grace, a preemption's grace, a cancel's clean-up of partial outputs) share the run's handles and must agree on
 * who ends it; the template expansion, work directories and outputs are already their own classes
 * ({@link WorkDirs}, TaskOutputs). The next cut, if it grows, is the event-range batch loop.
 */
public final class ProcessTaskExecutor implements TaskExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessTaskExecutor.class);
  public static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

  private final RealAgentConfig config;
  private final DiskCache disk;
  private final ExecutorService launcher;
  private final AgentScheduler scheduler;
  private final WorkDirs workDirs;
  private final ProcessTrees processes;
  private final OutputFiles outputs;
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final Map<String, BatchRun> batchRuns = new ConcurrentHashMap<>();

  public ProcessTaskExecutor(RealAgentConfig config, DiskCache disk, ExecutorService launcher,
      AgentScheduler scheduler) {
    this.config = config;
    this.disk = disk;
    this.launcher = launcher;
    this.scheduler = scheduler;
    this.workDirs = new WorkDirs(config.work().dir(), config.work().keep(),
        config.work().recycle());
    this.processes = new ProcessTrees(scheduler, config.tasks().killGrace());
    this.outputs = new OutputFiles(disk, config.storage().locations());
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
    return new Cancellable() {
      @Override
      public void cancel() {
        run.cancel();
      }

      @Override
      public void stop(Duration grace, Consumer<Boolean> stopped) {
        run.stop(grace, stopped);
      }
    };
  }

  @Override
  public boolean runsEventRanges() {
    return true;
  }

  @Override
  public RangeRun executeRange(String node, PlaceTask task, long end,
      Consumer<RangeResult> done) {
    String key = NodeAgent.taskKey(task.getTaskId(), task.getAttempt());
    BatchRun run = new BatchRun(key, node, task, end, done);
    batchRuns.put(key, run);
    try {
      launcher.execute(run::start);
    } catch (RejectedExecutionException e) {
      batchRuns.remove(key, run);
      LOG.debug("{}: not starting {}: shutting down", node, key);
    }
    return run;
  }

  /**
   * The running process of a task attempt ("taskId#attempt"), if it runs now; for an event-range
   * task, the process of the batch in progress.
   */
  public Optional<ProcessHandle> process(String taskKey) {
    Run r = runs.get(taskKey);
    Process p = r == null ? null : r.process;
    if (p == null) {
      BatchRun b = batchRuns.get(taskKey);
      p = b == null ? null : b.process;
    }
    return p == null ? Optional.empty() : Optional.of(p.toHandle());
  }

  /** The work directory of a task attempt: running, or finished and still kept. */
  public Optional<Path> workDir(String taskKey) {
    Run r = runs.get(taskKey);
    if (r != null && r.workDir != null) {
      return Optional.of(r.workDir);
    }
    BatchRun b = batchRuns.get(taskKey);
    if (b != null && b.workDir != null) {
      return Optional.of(b.workDir);
    }
    return workDirs.ofFinished(taskKey);
  }

  /** How many runs got a recycled work directory (see {@link WorkDirs}). */
  public long recycledWorkDirs() {
    return workDirs.recycled();
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
    for (BatchRun b : batchRuns.values()) {
      b.suspend();
    }
    processes.stopAll();
  }

  private List<String> inputPaths(String key, PlaceTask task) throws IOException {
    List<String> inputs = new ArrayList<>();
    for (InputPlan in : task.getInputs()) {
      inputs.add(disk.inputPath(key, in.getFileId()).toString());
    }
    return inputs;
  }

  /**
   * The process of one run (or one batch): no shell, in {@code wd}, stdin from /dev/null, stdout
   * and stderr to files (appended for batches), the documented environment plus {@code extraEnv}.
   */
  private ProcessBuilder processBuilder(List<String> argv, Path wd, TaskTemplate t, String node,
      PlaceTask task, boolean append, Map<String, String> extraEnv) {
    File stdout = wd.resolve("stdout").toFile();
    File stderr = wd.resolve("stderr").toFile();
    ProcessBuilder pb = new ProcessBuilder(argv)
        .directory(wd.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(append ? ProcessBuilder.Redirect.appendTo(stdout)
            : ProcessBuilder.Redirect.to(stdout))
        .redirectError(append ? ProcessBuilder.Redirect.appendTo(stderr)
            : ProcessBuilder.Redirect.to(stderr));
    Map<String, String> env = pb.environment();
    if (!config.tasks().inheritEnv()) {
      env.clear();
    }
    env.putIfAbsent("PATH", DEFAULT_PATH);
    env.putAll(config.tasks().env());
    env.putAll(t.env());
    env.put("HOME", wd.toString());
    env.put("TMPDIR", wd.resolve("tmp").toString());
    env.put("LOCUS_TASK_ID", task.getTaskId());
    env.put("LOCUS_ATTEMPT", Integer.toString(task.getAttempt()));
    env.put("LOCUS_JOB_ID", task.getJobId());
    env.put("LOCUS_NODE", node);
    env.put("LOCUS_POOL", config.agent().pool());
    env.put("LOCUS_WORK_DIR", wd.toString());
    env.put("LOCUS_OUTPUT_DIR", wd.resolve("out").toString());
    env.putAll(extraEnv);
    return pb;
  }

  /**
   * Longest value of LOCUS_INPUTS / LOCUS_OUTPUTS: Linux refuses to start a process with one
   * environment string over 128 KiB (MAX_ARG_STRLEN); a longer list is left out (use {@code
   * {inputs}} / {@code {outputs}}, which are arguments).
   */
  static final int MAX_LIST_CHARS = 100_000;

  /**
   * LOCUS_INPUTS and LOCUS_OUTPUTS: the staged inputs' and the declared outputs' paths, one per
   * line (a file id has no control characters, so a path has no newline); LOCUS_OUTPUT_SIZES:
   * one line per declared output, its declared bytes, a space, its path — so a stand-in for a
   * traced task can write outputs of the traced sizes (issue 23), e.g. {@code while read -r b p}.
   */
  static Map<String, String> pathLists(List<String> inputs, List<String> outputs,
      List<Long> outputBytes) {
    Map<String, String> env = new java.util.LinkedHashMap<>();
    StringBuilder sizes = new StringBuilder();
    for (int i = 0; i < outputs.size(); i++) {
      sizes.append(i == 0 ? "" : "\n").append(outputBytes.get(i)).append(' ')
          .append(outputs.get(i));
    }
    putBounded(env, "LOCUS_INPUTS", String.join("\n", inputs));
    putBounded(env, "LOCUS_OUTPUTS", String.join("\n", outputs));
    putBounded(env, "LOCUS_OUTPUT_SIZES", sizes.toString());
    return env;
  }

  private static void putBounded(Map<String, String> env, String name, String value) {
    if (value.length() <= MAX_LIST_CHARS) {
      env.put(name, value);
    }
  }

  private static String suffix(String tail) {
    return tail.isEmpty() ? "" : "; stderr: " + tail;
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
        wd = workDirs.create(task);
        workDir = wd;
      } catch (IOException e) {
        end(new Result(NodeAgent.ABORTED_EXIT_CODE, "cannot create a work directory: " + e));
        return;
      }
      List<String> inputs;
      try {
        inputs = inputPaths(key, task);
      } catch (IOException e) {
        finishDir();
        end(new Result(NodeAgent.ABORTED_EXIT_CODE, e.getMessage()));
        return;
      }
      Path out = wd.resolve("out");
      List<String> outputs = OutputFiles.paths(out, task);
      List<String> argv = t.expand(new TaskTemplate.Context(inputs, task.getArgs(),
          out.toString(), wd.toString(), task.getTaskId(), task.getAttempt(), task.getJobId(),
          node, config.agent().pool(), task.getComputeSeconds())
          .withOutputs(outputs));
      ProcessBuilder pb = processBuilder(argv, wd, t, node, task, false,
          pathLists(inputs, outputs, task.getOutputs().stream().map(o -> o.getBytes()).toList()));
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
        processes.started(p);
      }
      Duration limit = t.timeout() != null ? t.timeout() : config.tasks().timeout();
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
      processes.exited(p);
      int code = p.exitValue();
      String tail = stderrTail(workDir.resolve("stderr"));
      Result r;
      if (timedOut) {
        r = new Result(NodeAgent.ABORTED_EXIT_CODE, "timed out after " + limit + suffix(tail));
      } else if (code == 0) {
        r = new Result(0, tail.isEmpty() ? null : tail);
        boolean stopped;
        synchronized (this) {
          stopped = cancelled;
        }
        if (!stopped) {
          // Before the directory is kept or recycled: the outputs leave out/ now.
          r = outputs.collect(node, task, workDir.resolve("out"), r);
        }
      } else {
        r = new Result(code, "exit code " + code + suffix(tail));
      }
      synchronized (this) {
        if (cancelled) {
          WorkDirs.clearPartial(workDir); // the process is gone: nothing writes there any more
        }
      }
      finishDir();
      end(r);
    }

    private void end(Result r) {
      synchronized (this) {
        if (cancelled || finished) {
          // Nobody will cache outputs landed for a run that was stopped meanwhile.
          if (r.outputs() != null) {
            r.outputs().forEach(disk::discard);
          }
          return;
        }
        finished = true;
      }
      runs.remove(key, this);
      done.accept(r);
    }

    private void finishDir() {
      workDirs.finished(key, workDir);
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

    /**
     * A preemption: as {@link #cancel} (no result is reported, partial outputs are cleared once
     * the process is gone), but with the preemption's grace before SIGKILL, and {@code stopped}
     * once the whole process tree is gone. A run whose process has not started yet never starts
     * it and is stopped at once; a run that finished meanwhile reports its result instead.
     */
    void stop(Duration grace, Consumer<Boolean> stopped) {
      Process p;
      synchronized (this) {
        if (finished || cancelled) {
          return;
        }
        cancelled = true;
        timeout.cancel();
        p = process;
      }
      runs.remove(key, this);
      if (p == null) {
        stopped.accept(false); // start() sees the cancel and starts nothing
        return;
      }
      processes.stop(p, node, key, grace, stopped);
    }

    private void kill() {
      Process p = process;
      if (p != null) {
        processes.kill(p, node, key);
      }
    }
  }

  /**
   * One event-range task attempt: its batches, one process after the other. State changes happen
   * under this object's lock; {@code done} is called without it (the agent's lock is taken by the
   * agent, which calls shrink and suspend with it held).
   */
  private final class BatchRun implements RangeRun {
    final String key;
    final String node;
    final PlaceTask task;
    final Consumer<RangeResult> done;
    final String dataset;
    volatile Process process;
    volatile Path workDir;
    private TaskTemplate template;
    private List<String> inputs;
    /** First event not processed: the start of the batch in progress, if any. */
    private long pos;
    /** End of the batch in progress; equal to pos between batches. */
    private long batchEnd;
    private long end;
    /** Suspended, cancelled or finished: nothing more runs and the result is final. */
    private boolean over;
    private boolean timedOut;
    private boolean released;
    private Cancellable timeout = Cancellable.NONE;

    BatchRun(String key, String node, PlaceTask task, long end, Consumer<RangeResult> done) {
      this.key = key;
      this.node = node;
      this.task = task;
      this.done = done;
      this.dataset = task.getEvents().getDataset();
      this.pos = task.getEvents().getStart();
      this.batchEnd = pos;
      this.end = Math.max(pos, end);
    }

    void start() {
      synchronized (this) {
        if (over) {
          return;
        }
      }
      TaskTemplate t = templateFor(task);
      if (t == null) {
        fail(NodeAgent.ABORTED_EXIT_CODE, "no template " + task.getTemplate());
        return;
      }
      Path wd;
      try {
        wd = workDirs.create(task);
      } catch (IOException e) {
        fail(NodeAgent.ABORTED_EXIT_CODE, "cannot create a work directory: " + e);
        return;
      }
      boolean stoppedMeanwhile;
      synchronized (this) {
        workDir = wd;
        template = t;
        stoppedMeanwhile = over;
      }
      if (stoppedMeanwhile) {
        release();
        return;
      }
      try {
        List<String> in = inputPaths(key, task);
        synchronized (this) {
          inputs = in;
        }
      } catch (IOException e) {
        fail(NodeAgent.ABORTED_EXIT_CODE, e.getMessage());
        return;
      }
      next();
    }

    /** Starts the next batch, or completes when the end is reached. Runs on the launcher. */
    private void next() {
      Process p;
      Duration limit;
      List<String> argv;
      long from;
      long to;
      RangeResult result = null;
      synchronized (this) {
        if (over) {
          return;
        }
        from = pos;
        if (pos >= end) {
          over = true;
          result = new RangeResult(0, null, pos);
          p = null;
          limit = null;
          argv = null;
          to = pos;
        } else {
          batchEnd = Math.min(end, pos + config.tasks().eventBatch());
          to = batchEnd;
          Path wd = workDir;
          argv = template.expand(new TaskTemplate.Context(inputs, task.getArgs(),
              wd.resolve("out").toString(), wd.toString(), task.getTaskId(), task.getAttempt(),
              task.getJobId(), node, config.agent().pool(), task.getComputeSeconds(), dataset,
              from, to));
          ProcessBuilder pb = processBuilder(argv, wd, template, node, task, true, Map.of(
              "LOCUS_DATASET", dataset,
              "LOCUS_BATCH_START", Long.toString(from),
              "LOCUS_BATCH_END", Long.toString(to)));
          limit = template.timeout() != null ? template.timeout() : config.tasks().timeout();
          try {
            // Started under the lock: a suspend comes either before (nothing starts) or after
            // (and sees the process to kill).
            p = pb.start();
            process = p;
            processes.started(p);
            Process started = p;
            Duration l = limit;
            timeout = scheduler.schedule(limit.toNanos(), () -> timedOut(started, from, to, l));
          } catch (IOException e) {
            over = true;
            p = null;
            result = new RangeResult(NodeAgent.ABORTED_EXIT_CODE, "cannot start " + argv.get(0)
                + ": " + e.getMessage(), from);
          }
        }
      }
      if (result != null) {
        conclude(result);
        return;
      }
      LOG.debug("{}: {} batch [{}, {}) started pid {}: {}", node, key, from, to, p.pid(), argv);
      Duration l = limit;
      Process started = p;
      p.onExit().thenRunAsync(() -> exited(started, l), launcher);
    }

    private void timedOut(Process p, long from, long to, Duration limit) {
      synchronized (this) {
        if (over || process != p) {
          return;
        }
        timedOut = true;
      }
      LOG.info("{}: {} batch [{}, {}) timed out after {}", node, key, from, to, limit);
      processes.kill(p, node, key);
    }

    private void exited(Process p, Duration limit) {
      processes.exited(p);
      int code = p.exitValue();
      long from;
      long to;
      boolean late;
      synchronized (this) {
        timeout.cancel();
        if (over || process != p) {
          from = -1;
          to = -1;
          late = false;
        } else {
          process = null;
          from = pos;
          to = batchEnd;
          late = timedOut;
          if (!late && code == 0) {
            pos = batchEnd;
          } else {
            over = true;
          }
        }
      }
      if (from < 0) {
        // Suspended or cancelled: the batch is lost and the answer was given at the suspend.
        release();
        return;
      }
      if (late || code != 0) {
        String tail = stderrTail(workDir.resolve("stderr"));
        String what = "batch [" + from + ", " + to + ") ";
        conclude(late
            ? new RangeResult(NodeAgent.ABORTED_EXIT_CODE, what + "timed out after " + limit
                + suffix(tail), from)
            : new RangeResult(code, what + "exit code " + code + suffix(tail), from));
        return;
      }
      next();
    }

    private void fail(int code, String message) {
      long at;
      synchronized (this) {
        if (over) {
          return;
        }
        over = true;
        at = pos;
      }
      conclude(new RangeResult(code, message, at));
    }

    /** The run is over (the caller set {@code over}): keep its directory and report. */
    private void conclude(RangeResult r) {
      release();
      done.accept(r);
    }

    /** Keeps the work directory of a run that is over and forgets the run; once. */
    private void release() {
      synchronized (this) {
        if (released) {
          return;
        }
        released = true;
      }
      workDirs.finished(key, workDir);
      batchRuns.remove(key, this);
    }

    @Override
    public synchronized long shrink(long newEnd) {
      if (over) {
        return pos;
      }
      // The batch in progress finishes; between batches the next one has not started.
      long floor = process != null ? batchEnd : pos;
      long stopAt = Math.min(end, Math.max(newEnd, floor));
      end = stopAt;
      return stopAt;
    }

    @Override
    public Stop suspend() {
      Process p;
      long stopAt;
      synchronized (this) {
        if (over) {
          return new Stop(pos, false);
        }
        over = true;
        stopAt = pos;
        p = process;
        timeout.cancel();
      }
      if (p != null) {
        // Its exit callback releases the run (off the agent's lock: that does file work).
        processes.kill(p, node, key);
      } else {
        try {
          launcher.execute(this::release);
        } catch (RejectedExecutionException e) {
          batchRuns.remove(key, this);
        }
      }
      return new Stop(stopAt, true);
    }
  }

  /**
   * Whether the process still runs; a zombie does not (see {@link ProcessTrees#isRunning}).
   */
  public static boolean isRunning(ProcessHandle h) {
    return ProcessTrees.isRunning(h);
  }

  /** The last bytes of stderr as text, trimmed; "" when there are none. */
  String stderrTail(Path stderr) {
    int max = (int) config.tasks().stderrTailBytes().bytes();
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
