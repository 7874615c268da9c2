package io.locus.cli.sim;

import io.locus.cli.QueueFile;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.core.share.QueueTree;
import io.locus.jobs.options.PolicyParameters;
import io.locus.sim.Simulation;
import io.locus.sim.SimulationConfig;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.QueueMetrics;
import io.locus.sim.output.Plots;
import io.locus.sim.output.QueueFiles;
import io.locus.sim.output.QueuePlots;
import io.locus.sim.output.ResultFiles;
import io.locus.sim.output.SummaryTable;
import io.locus.sim.provision.LrmConfig;
import io.locus.workloads.TraceFiles;
import io.locus.workloads.TraceFormatException;
import io.locus.workloads.Workload;
import io.locus.workloads.Workloads;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus simulate}: one workload under one configuration in the discrete-event simulator.
 * Prints a summary line and writes {@code summary.csv}, {@code series.csv}, {@code slowdown.csv}
 * and PNG plots to {@code --out}.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Simulate a workload in virtual time with the data-diffusion model (policy core, executor"
            + " caches, max-min fair bandwidth sharing, SRP/DRP provisioning) and write CSV and PNG"
            + " results. Example:",
        "  locus simulate --workload mi --policy gcc --cache-gb 4 --max-nodes 64 --provisioning drp"})
public final class SimulateCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--workload", defaultValue = "mi", paramLabel = "NAME",
      description = "Generated workload (${COMPLETION-CANDIDATES}). Default: ${DEFAULT-VALUE}.",
      completionCandidates = WorkloadNames.class)
  String workload;

  @Option(names = "--workload-param", paramLabel = "KEY=VALUE",
      description = "Generator parameter, repeatable (e.g. --workload stacking --workload-param locality=10).")
  Map<String, String> workloadParams = new LinkedHashMap<>();

  @Option(names = "--trace", arity = "1..*", paramLabel = "FILE",
      description = "Replay trace files instead of --workload: Locus JSON lines (.gz allowed), "
          + "WfCommons instances or SWF logs (--format). Several files are one workload (ids "
          + "prefixed with each file's name).")
  List<Path> traces = new ArrayList<>();

  @Option(names = "--format", defaultValue = "locus", paramLabel = "FORMAT",
      description = "Format of the --trace files: locus, wfcommons or swf. Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--time-scale", defaultValue = "1", paramLabel = "X",
      description = "--trace: multiply every time of the trace (arrivals, runtimes) by X. "
          + "Default: ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(names = "--swf-file-model", defaultValue = "true", arity = "1", paramLabel = "true|false",
      description = "--format swf: jobs read files of the seeded file-set model (true) or none "
          + "(false). Default: ${DEFAULT-VALUE}.")
  boolean swfFileModel;

  @picocli.CommandLine.Mixin io.locus.cli.QueueFlags queueFlags;

  // Not --queues: QueueFlags' --queues names each trace file's queue (locus trace has it too).
  @Option(names = "--queue-config", paramLabel = "FILE",
      description = "The pool's queue tree (issue 24): the YAML or JSON file locus queues apply"
          + " takes, checked the same way (a bad file: every reason, exit 2); its 'pool' is"
          + " ignored. Jobs name their queue (a trace's queue field, --swf-queue, --queues,"
          + " --queue; the tenants workload names tenant-1 ...); a job naming a queue the file"
          + " lacks is refused, as the scheduler refuses it. Writes queues.csv and"
          + " queue-series.csv (share error, Jain's index, time to guarantee, response and byte"
          + " sources per queue).")
  Path queueConfig;

  @Option(names = "--queue-dispatch", defaultValue = "fair", paramLabel = "fair|fifo",
      description = "With --queue-config: fair (the scheduler dispatches by the tree) or fifo"
          + " (the pool stays one queue in priority and arrival order, as without a tree; the"
          + " tree only measures it against the same fair shares). Default: ${DEFAULT-VALUE}.")
  String queueDispatch;

  @Option(names = "--max-locality-wait", defaultValue = "3", paramLabel = "SECONDS",
      description = "With --queue-config and fair dispatch: the cap on a queue head's wait for a"
          + " better node, shrinking as its queue falls below its fair share (docs/policies.md,"
          + " \"The locality wait that shrinks with the deficit\"); 0: heads never wait for"
          + " locality. Default: ${DEFAULT-VALUE}.")
  double maxLocalityWait;

  @Option(names = "--preemption-grace", defaultValue = "30s", paramLabel = "DURATION|off",
      description = "With --queue-config and fair dispatch: the grace period of preemption (a"
          + " queue below its guarantee reclaims slots from queues above theirs; docs/policies.md,"
          + " \"Preemption: only to restore guarantees\"). A victim still reading its inputs stops"
          + " at once, a computing one at the end of the grace (every process taken to ignore"
          + " SIGTERM); its work is lost and counted (queues.csv: preempted, lost_slot_s). off: no"
          + " preemption. Default: ${DEFAULT-VALUE}, the scheduler's.")
  String preemptionGrace;

  @Option(names = "--policy", defaultValue = "gcc",
      completionCandidates = io.locus.core.policy.PolicyRegistry.AgentCacheNames.class,
      description = "One of ${COMPLETION-CANDIDATES} (any case): the policies that run on agent "
          + "caches, this simulator's model. Default: ${DEFAULT-VALUE}.")
  String policy;

  @Option(names = "--cache-gb", defaultValue = "4", description = "Cache per node, GB (decimal). Default: ${DEFAULT-VALUE}.")
  double cacheGb;

  @Option(names = "--nodes", defaultValue = "64",
      description = "SRP: nodes of the static pool (DRP's ceiling is --max-nodes). Default: ${DEFAULT-VALUE}.")
  int nodes;

  // Issue 21: --nodes meant "SRP: nodes; DRP: maximum nodes"; the DRP ceiling now has locus run's
  // name. A --nodes given with drp and no --max-nodes still sets the ceiling (scripts and the
  // documented reference runs wrote it so), with a note on stderr.
  @Option(names = "--max-nodes", defaultValue = "64",
      description = "DRP: never more nodes than this (as locus run --max-nodes). Default: ${DEFAULT-VALUE}.")
  int maxNodes;

  @Option(names = "--min-nodes", defaultValue = "1",
      description = "DRP: nodes registered at t = 0 and never released. Default: ${DEFAULT-VALUE},"
          + " the data-diffusion paper's setup (locus run's is 0: a real pool may scale to zero).")
  int minNodes;

  @Option(names = "--slots", defaultValue = "2", description = "Slots per node. Default: ${DEFAULT-VALUE}.")
  int slots;

  @Option(names = "--fs-gbps", defaultValue = "4",
      description = "Shared file system aggregate bandwidth, Gb/s. Default: ${DEFAULT-VALUE}.")
  double fsGbps;

  @Option(names = "--nic-gbps", defaultValue = "1", description = "NIC bandwidth each way, Gb/s. Default: ${DEFAULT-VALUE}.")
  double nicGbps;

  @Option(names = "--disk-gbps", defaultValue = "1.1875",
      description = "Local cache read bandwidth per node, Gb/s. Default: ${DEFAULT-VALUE}.")
  double diskGbps;

  @Option(names = "--provisioning", defaultValue = "drp",
      description = "srp (or static), drp (or dynamic) or lrm-per-task. Default: ${DEFAULT-VALUE},"
          + " the data-diffusion paper's setup (locus run's is static).")
  String provisioning;

  @Option(names = "--acquisition", defaultValue = "all-at-once",
      description = "DRP: one-at-a-time, all-at-once, additive, exponential or optimal. Default: ${DEFAULT-VALUE}.")
  String acquisition;

  @Option(names = "--release", defaultValue = "distributed-idle",
      description = "DRP: distributed-idle, centralized-empty or centralized-threshold. Default: ${DEFAULT-VALUE}.")
  String release;

  @Option(names = "--idle-seconds", defaultValue = "30",
      description = "DRP: seconds idle before a node releases itself. Default: ${DEFAULT-VALUE}.")
  double idleSeconds;

  @Option(names = "--lrm-capacity", description = "Nodes in the batch resource manager. Default: unbounded.")
  Integer lrmCapacity;

  @Mixin PolicyParameters parameters;

  @Option(names = "--eviction", defaultValue = "lru", description = "Cache eviction policy. Default: ${DEFAULT-VALUE}.")
  String eviction;

  @Option(names = "--priority", paramLabel = "N",
      description = "Priority of every job that sets none (WfCommons and SWF have no such field;"
          + " a Locus trace's job may leave it out): an integer in [-1000, 1000], higher first"
          + " in its pool's queue. Default: 0.")
  Integer priority;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the workload and the model. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--tau-dispatch", defaultValue = "0", description = "Dispatcher seconds per placement. Default: ${DEFAULT-VALUE}.")
  double tauDispatch;

  @Option(names = "--cells", defaultValue = "1",
      description = "Split the pool into this many scheduler cells, each with its own dispatcher "
          + "(tau-dispatch each), tasks routed by cached bytes with a load bound (SRP only): the "
          + "design for a pool larger than one operator instance. Default: ${DEFAULT-VALUE}.")
  int cells;

  // Not --delivery: that is the decisions' delivery mode (exactly-once, at-least-once) elsewhere.
  @Option(names = "--result-delivery", defaultValue = "0", paramLabel = "SECONDS",
      description = "Result delivery seconds D_i. Default: ${DEFAULT-VALUE}.")
  double delivery;

  @Option(names = "--replay", description = "Re-dispatch attempts without a result after max(60 s, 10 x estimate).")
  boolean replay;

  @Option(names = "--retry-backoff", defaultValue = "PT0S", paramLabel = "DURATION",
      description = "How long a failed or timed-out attempt's retry waits before it may be placed, "
          + "doubling with each failure of the task up to --retry-backoff-max (the streaming "
          + "scheduler's rule, locus run --retry-backoff; set the same to compare). PT0S: the "
          + "spec's immediate re-dispatch. Default: ${DEFAULT-VALUE}.")
  java.time.Duration retryBackoff;

  @Option(names = "--retry-backoff-max", defaultValue = "PT6M", paramLabel = "DURATION",
      description = "The longest a retry waits. Default: ${DEFAULT-VALUE}.")
  java.time.Duration retryBackoffMax;

  @Option(names = "--failure-rate", defaultValue = "0",
      description = "Probability that an attempt fails (failure injection). Default: ${DEFAULT-VALUE}.")
  double failureRate;

  @Option(names = "--cancel", defaultValue = "0", paramLabel = "FRACTION",
      description = "What if this share of jobs is cancelled by its user: each job is drawn with"
          + " this probability (seeded by --seed) and cancelled at a time drawn within"
          + " --cancel-within of its arrival. Queued: it leaves the queue; running: its attempt"
          + " stops, no retry; finished: nothing happens. A trace's own cancelAfter always"
          + " applies. Default: ${DEFAULT-VALUE}.")
  double cancelFraction;

  @Option(names = "--cancel-within", paramLabel = "SECONDS",
      description = "Window after a job's arrival in which its --cancel time is drawn (uniform)."
          + " Default: twice the job's uncontended run time (compute plus bytes at the smaller of"
          + " NIC and file-system bandwidth).")
  Double cancelWithin;

  @Option(names = "--on-failure", defaultValue = "fail-descendants",
      paramLabel = "fail-descendants|fail-workflow",
      description = "When a workflow job fails for good or is cancelled: fail only the jobs that"
          + " depend on it, or every job of its workflow (its DAG) not yet released. Default:"
          + " ${DEFAULT-VALUE}.")
  String onFailure;

  // Not --step: the bench's (each rate's duration) and the CERN experiments' (load increment).
  @Option(names = "--slowdown-step", defaultValue = "60", paramLabel = "SECONDS",
      description = "Arrival step for the slowdown metric, s. Default: ${DEFAULT-VALUE}.")
  double step;

  @Option(names = "--ideal-time", description = "Ideal time for efficiency, s. Default: derived (MI 1415, SW 6505).")
  Double idealTime;

  @Option(names = "--fa-time", description = "FA completion time of the same setup, s: prints the speedup.")
  Double faTime;

  @Option(names = "--horizon", description = "Stop after this much virtual time, s. Default: none.")
  Double horizon;

  @Option(names = "--measure-scheduler", description = "Measure the scheduler's CPU time (decisions per CPU second).")
  boolean measureScheduler;

  @Option(names = "--out", defaultValue = "results", description = "Output directory. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Option(names = "--no-plots", description = "Write CSV only.")
  boolean noPlots;

  @Option(names = "--quiet", description = "No progress lines.")
  boolean quiet;

  @Override
  public Integer call() throws IOException {
    SimulationConfig cfg = config();
    Workload w = workload();
    PrintWriter o = spec.commandLine().getOut();
    if (cfg.queues() != null && cfg.queues().enforce()
        && !(io.locus.core.policy.Policies.create(cfg.policy(), cfg.policyParams())
            instanceof io.locus.core.policy.ChoosesPerTask)) {
      // as the scheduler's SET_QUEUES ack says: fair share needs a policy that answers per task
      spec.commandLine().getErr().println("locus simulate: note: " + cfg.policy() + " keeps its"
          + " own order under a queue tree (fair share needs a policy that places task by task:"
          + " FA, FCA, MCU, MCH, GCC, EFT); the tree only measures this run");
      spec.commandLine().getErr().flush();
    }
    o.printf(Locale.ROOT, "Simulating %s (%d tasks) with %s, %s ...%n", w.name(), w.size(),
        cfg.provisioning() == SimulationConfig.Provisioning.LRM_PER_TASK ? "LRM_PER_TASK"
            : cfg.policy().toUpperCase(Locale.ROOT), cfg.provisioning().cliName());
    long wall0 = System.nanoTime();
    RunResult<DiffusionMetrics> r;
    try {
      r = Simulation.run(cfg, w, quiet ? Simulation.Progress.NONE
          : (t, done, released, queue, nodes) -> {
        o.printf(Locale.ROOT, "  t = %7.0f s: %d of %d tasks done, queue %d, %d nodes (%.1f s)%n",
            t, done, w.size(), queue, nodes, (System.nanoTime() - wall0) / 1e9);
        o.flush();
      });
    } catch (TraceFormatException e) { // trace files are read as the run goes
      throw new CommandLine.ParameterException(spec.commandLine(), "--trace: " + e.getMessage(),
          e);
    }
    SummaryTable.print(o, List.of(r));
    if (r.detail().tasks().dropped() > 0) {
      o.printf(Locale.ROOT, "%d jobs not run: a parent failed for good, was cancelled or never"
          + " arrived, or their workflow failed%n", r.detail().tasks().dropped());
    }
    DiffusionMetrics.Lifecycle life = r.detail().lifecycle();
    if (life.cancelled() + life.cancelsTooLate() > 0) {
      o.printf(Locale.ROOT, "cancels: %d cancelled (%d while placed or running, %s slot-seconds"
          + " wasted), %d too late (the job had ended)%n", life.cancelled(),
          life.cancelledRunning(), io.locus.sim.metrics.Numbers.fixed(life.wastedSlotSeconds(), 1),
          life.cancelsTooLate());
    }
    if (faTime != null) {
      o.printf(Locale.ROOT, "speedup vs FA: %.3f%n", faTime / r.detail().times().completionTime());
    }
    if (r.detail().queues() != null) {
      QueueTable.print(o, r.detail().queues());
    }
    List<Path> files = write(r);
    o.println("Wrote " + files.size() + " files to " + out.toAbsolutePath().normalize());
    o.flush();
    return r.complete() ? 0 : 1;
  }

  List<Path> write(RunResult<DiffusionMetrics> r) throws IOException {
    Files.createDirectories(out);
    List<Path> files = new ArrayList<>();
    files.add(out.resolve("summary.csv"));
    ResultFiles.summary(files.get(0), List.of(r));
    files.add(out.resolve("series.csv"));
    ResultFiles.series(files.get(1), r.detail().series());
    files.add(out.resolve("slowdown.csv"));
    ResultFiles.slowdown(files.get(2), r.detail());
    QueueMetrics q = r.detail().queues();
    if (q != null) {
      files.add(out.resolve("queues.csv"));
      QueueFiles.queues(files.get(files.size() - 1), q);
      files.add(out.resolve("queue-series.csv"));
      QueueFiles.series(files.get(files.size() - 1), q);
    }
    if (!noPlots) {
      String title = r.label() + " on " + r.detail().setup().workload();
      var err = spec.commandLine().getErr();
      files.addAll(QueuePlots.drawOrWarn(() -> Plots.run(out, title, r.detail().series()),
          err));
      if (q != null) {
        files.addAll(QueuePlots.drawOrWarn(() -> QueuePlots.run(out, title, q), err));
      }
    }
    return files;
  }

  /** Validates every option together, so one run reports every mistake at once. */
  SimulationConfig config() {
    List<String> problems = new ArrayList<>();
    boolean trace = !traces.isEmpty();
    var parsed = spec != null ? spec.commandLine().getParseResult() : null;
    if (trace && parsed != null && parsed.hasMatchedOption("--workload")) {
      problems.add("give --workload or --trace, not both");
    }
    for (Path t : traces) {
      String why = io.locus.cli.WorkloadSource.unreadable(t);
      if (why != null) {
        problems.add("--trace: " + t + " " + why);
      }
    }
    if (!trace && parsed != null) {
      for (String o : List.of("--format", "--time-scale", "--swf-file-model", "--swf-queue",
          "--queues")) {
        if (parsed.hasMatchedOption(o)) {
          problems.add(o + " applies to --trace files only");
        }
      }
    }
    try {
      TraceFiles.Format.parse(format);
    } catch (IllegalArgumentException e) {
      problems.add("--format: " + e.getMessage());
    }
    positive(problems, "--time-scale", timeScale);
    queueProblems(problems);
    SimulationConfig.Queues queueTree = queueTree(problems);
    if (!trace && !Workloads.names().contains(workload)) {
      problems.add("--workload: unknown workload '" + workload + "'; valid: "
          + String.join(", ", Workloads.names()));
    }
    if (!SimulationConfig.POLICIES.contains(policy.toUpperCase(Locale.ROOT))) {
      problems.add("--policy: unknown policy '" + policy + "'; valid: "
          + String.join(", ", SimulationConfig.POLICIES));
    }
    SimulationConfig.Provisioning prov = null;
    try {
      // locus run's spellings too: one value means one thing in both commands
      prov = SimulationConfig.Provisioning.parse(switch (provisioning.trim().toLowerCase(Locale.ROOT)) {
        case "static" -> "srp";
        case "dynamic" -> "drp";
        default -> provisioning;
      });
    } catch (IllegalArgumentException e) {
      problems.add("--provisioning: " + e.getMessage());
    }
    ProvisioningConfig.Acquisition acq = null;
    try {
      acq = ProvisioningConfig.Acquisition.parse(acquisition);
    } catch (IllegalArgumentException e) {
      problems.add("--acquisition: unknown strategy '" + acquisition
          + "'; valid: one-at-a-time, all-at-once, additive, exponential, optimal");
    }
    ProvisioningConfig.Release rel = null;
    try {
      rel = ProvisioningConfig.Release.parse(release);
    } catch (IllegalArgumentException e) {
      problems.add("--release: unknown policy '" + release
          + "'; valid: distributed-idle, centralized-empty, centralized-threshold");
    }
    if (!SimulationConfig.EVICTIONS.contains(eviction.toUpperCase(Locale.ROOT))) {
      problems.add("--eviction: unknown eviction policy '" + eviction + "'; valid: "
          + String.join(", ", SimulationConfig.EVICTIONS));
    }
    if (prov == SimulationConfig.Provisioning.DRP && parsed != null
        && parsed.hasMatchedOption("--nodes") && !parsed.hasMatchedOption("--max-nodes")) {
      maxNodes = nodes;
      spec.commandLine().getErr().println("locus simulate: note: with drp the ceiling is"
          + " --max-nodes; --nodes " + nodes + " taken as --max-nodes " + nodes);
      spec.commandLine().getErr().flush();
    }
    int size = prov == SimulationConfig.Provisioning.DRP ? maxNodes : nodes;
    positive(problems, prov == SimulationConfig.Provisioning.DRP ? "--max-nodes" : "--nodes",
        size);
    positive(problems, "--slots", slots);
    if (minNodes < 0 || minNodes > size) {
      problems.add("--min-nodes must be between 0 and "
          + (prov == SimulationConfig.Provisioning.DRP ? "--max-nodes" : "--nodes") + " (" + size
          + ")");
    }
    positive(problems, "--fs-gbps", fsGbps);
    positive(problems, "--nic-gbps", nicGbps);
    positive(problems, "--disk-gbps", diskGbps);
    positive(problems, "--slowdown-step", step);
    positive(problems, "--window", parameters.window);
    notNegative(problems, "--cache-gb", cacheGb);
    notNegative(problems, "--idle-seconds", idleSeconds);
    notNegative(problems, "--tau-dispatch", tauDispatch);
    notNegative(problems, "--result-delivery", delivery);
    if (!(parameters.theta >= 0 && parameters.theta <= 1)) {
      problems.add("--theta must be between 0 and 1");
    }
    if (!(failureRate >= 0 && failureRate < 1)) {
      problems.add("--failure-rate must be in [0, 1)");
    }
    if (retryBackoff.isNegative()) {
      problems.add("--retry-backoff must be a duration >= 0");
    } else if (retryBackoffMax.compareTo(retryBackoff) < 0) {
      problems.add("--retry-backoff-max (" + retryBackoffMax + ") must be at least "
          + "--retry-backoff (" + retryBackoff + ")");
    }
    if (lrmCapacity != null && lrmCapacity < 1) {
      problems.add("--lrm-capacity must be >= 1");
    }
    if (!(cancelFraction >= 0 && cancelFraction <= 1)) {
      problems.add("--cancel must be a fraction in [0, 1]");
    }
    if (cancelWithin != null) {
      notNegative(problems, "--cancel-within", cancelWithin);
    }
    SimulationConfig.OnFailure failurePolicy = null;
    try {
      failurePolicy = SimulationConfig.OnFailure.parse(onFailure);
    } catch (IllegalArgumentException e) {
      problems.add("--on-failure: " + e.getMessage());
    }
    if (horizon != null) {
      positive(problems, "--horizon", horizon);
    }
    if (faTime != null) {
      positive(problems, "--fa-time", faTime);
    }
    if (!problems.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", problems));
    }
    ExecConfig exec = new ExecConfig(ExecConfig.gbps(diskGbps), ExecConfig.gbps(nicGbps),
        ExecConfig.gbps(nicGbps), ExecConfig.gbps(fsGbps), delivery,
        eviction.toUpperCase(Locale.ROOT));
    String label = prov == SimulationConfig.Provisioning.LRM_PER_TASK ? "LRM_PER_TASK"
        : policy.toUpperCase(Locale.ROOT) + "-" + prov.cliName();
    SimulationConfig.Builder b = SimulationConfig.builder()
        .label(label)
        .policy(policy.toUpperCase(Locale.ROOT)).window(parameters.window).theta(parameters.theta).nodes(size)
        .minNodes(minNodes).slots(slots).cacheGb(cacheGb).provisioning(prov).acquisition(acq)
        .release(rel).idleSeconds(idleSeconds)
        .lrm(lrmCapacity == null ? LrmConfig.defaults() : LrmConfig.withCapacity(lrmCapacity))
        .exec(exec).tauDispatch(tauDispatch).cells(cells).seed(seed).stepSeconds(step)
        .measureSchedulerCpu(measureScheduler).queues(queueTree)
        .lifecycle(new SimulationConfig.Lifecycle(cancelFraction,
            cancelWithin == null ? Double.NaN : cancelWithin, failurePolicy));
    if (replay || failureRate > 0) {
      SimulationConfig.Replay off = SimulationConfig.Replay.off();
      b.replay(new SimulationConfig.Replay(replay, off.minTimeoutSeconds(), off.runtimeFactor(),
          failureRate, off.suspendAfter(), off.suspendWindowSeconds(),
          new io.locus.core.state.RetryBackoff(retryBackoff.toMillis() / 1000.0,
              retryBackoffMax.toMillis() / 1000.0)));
    }
    if (idealTime != null) {
      b.idealTime(idealTime);
    }
    if (horizon != null) {
      b.horizonSeconds(horizon);
    }
    return b.build();
  }

  /**
   * --queue-config read and checked as {@code locus queues apply} checks it (QueueFile, the
   * scheduler's QueueTree rules, a pool of unknown size: the simulated pool may grow and shrink);
   * null without it. Mistakes go to {@code problems}.
   */
  private SimulationConfig.Queues queueTree(List<String> problems) {
    boolean fifo = queueDispatch.equalsIgnoreCase("fifo");
    if (!fifo && !queueDispatch.equalsIgnoreCase("fair")) {
      problems.add("--queue-dispatch: unknown mode '" + queueDispatch + "'; valid: fair, fifo");
    }
    var parsed = spec != null ? spec.commandLine().getParseResult() : null;
    if (queueConfig == null) {
      for (String o : List.of("--queue-dispatch", "--max-locality-wait", "--preemption-grace")) {
        if (parsed != null && parsed.hasMatchedOption(o)) {
          problems.add(o + " applies with --queue-config only");
        }
      }
      return null;
    }
    if (!(maxLocalityWait >= 0) || Double.isInfinite(maxLocalityWait)) {
      problems.add("--max-locality-wait must be >= 0 seconds");
    }
    double grace = grace(problems);
    if (cells > 1) {
      problems.add("--queue-config needs one scheduler: not with --cells " + cells);
    }
    if (provisioning.trim().equalsIgnoreCase("lrm-per-task")
        || provisioning.trim().equalsIgnoreCase("lrm_per_task")) {
      problems.add("--queue-config needs a scheduler: not with --provisioning lrm-per-task");
    }
    QueueFile f;
    try {
      f = QueueFile.read(queueConfig);
    } catch (IllegalArgumentException e) {
      problems.add("--queue-config: " + e.getMessage());
      return null;
    }
    List<String> bad = f.problems();
    if (!bad.isEmpty()) {
      problems.add("--queue-config: " + queueConfig + " is refused (" + bad.size()
          + " problem(s)): " + String.join("; ", bad));
      return null;
    }
    if (!problems.isEmpty()) {
      return null;
    }
    return new SimulationConfig.Queues(QueueTree.build(f.specs, -1), !fifo, maxLocalityWait,
        grace);
  }

  /**
   * --preemption-grace in seconds, NaN for {@code off}; a bad value goes to {@code problems}.
   * Bounded as the node agent bounds the grace it accepts (it refuses one above an hour).
   */
  private double grace(List<String> problems) {
    String v = preemptionGrace == null ? "" : preemptionGrace.trim();
    if (v.equalsIgnoreCase("off")) {
      return Double.NaN;
    }
    try {
      java.time.Duration d = io.locus.kafka.cli.DurationText.parse(v);
      if (d.isNegative() || d.toMillis() > io.locus.agent.NodeAgent.MAX_PREEMPT_GRACE_MS) {
        problems.add("--preemption-grace must be between 0s and 1h, or off; got " + v);
        return Double.NaN;
      }
      return d.toNanos() / 1e9;
    } catch (IllegalArgumentException e) {
      problems.add("--preemption-grace: " + e.getMessage() + " (or off)");
      return Double.NaN;
    }
  }

  /** The queue options' mistakes (issue 24), each naming its option. */
  private void queueProblems(List<String> problems) {
    problems.addAll(queueFlags.problems());
    if (queueFlags.swfQueueGiven() && !traces.isEmpty() && !format.equalsIgnoreCase("swf")) {
      problems.add("--swf-queue applies to --format swf only");
    }
  }

  public Workload workload() throws IOException {
    if (priority != null && !io.locus.core.model.Priority.valid(priority)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--priority: " + io.locus.core.model.Priority.outOfRange(priority));
    }
    List<String> problems = new ArrayList<>();
    queueProblems(problems);
    if (!problems.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", problems));
    }
    Workload w;
    if (!traces.isEmpty()) {
      w = traceWorkload(spec, traces, TraceFiles.Format.parse(format),
          new TraceFiles.Options(timeScale, List.of(), swfFileModel, seed,
              queueFlags.swfField(), queueFlags.perFile()));
    } else {
      try {
        w = Workloads.create(workload, workloadParams, seed);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--workload-param: " + e.getMessage());
      }
    }
    // jobs that set a priority keep theirs; without --priority they stay unset (0)
    w = priority == null ? w : w.withDefaultPriority(priority);
    // likewise a queue: without --queue, a job that names none is in the pool's default queue
    return queueFlags.applyDefault(w);
  }

  /**
   * The trace files as one workload. A malformed file, or a format or option the readers do not
   * support, is a usage error (exit code 2) with the reader's message.
   */
  static Workload traceWorkload(CommandLine.Model.CommandSpec spec, List<Path> files,
      TraceFiles.Format format, TraceFiles.Options options) throws IOException {
    try {
      Workload w = TraceFiles.open(files, format, options);
      w.warnings().forEach(m -> spec.commandLine().getErr().println("warning: " + m));
      spec.commandLine().getErr().flush();
      return w;
    } catch (TraceFormatException | IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--trace: " + e.getMessage(),
          e);
    } catch (UnsupportedOperationException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--trace: --format "
          + format.cliName() + " with these files and options is not supported by this build ("
          + e.getMessage() + ")", e);
    }
  }

  private static void positive(List<String> problems, String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      problems.add(name + " must be > 0");
    }
  }

  private static void notNegative(List<String> problems, String name, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      problems.add(name + " must be >= 0");
    }
  }

  /** Workload names for the help text. */
  static final class WorkloadNames extends ArrayList<String> {
    WorkloadNames() {
      super(Workloads.names());
    }
  }
}
