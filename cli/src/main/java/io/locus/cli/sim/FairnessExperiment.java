package io.locus.cli.sim;

import io.locus.core.policy.PolicyRegistry;
import io.locus.core.share.LocalityWait;
import io.locus.core.share.Preemption;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.sim.Simulation;
import io.locus.sim.SimulationConfig;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.Numbers;
import io.locus.sim.metrics.QueueMetrics;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
import io.locus.sim.output.Plots;
import io.locus.sim.output.QueueFiles;
import io.locus.sim.output.QueuePlots;
import io.locus.sim.output.ResultFiles;
import io.locus.workloads.Tenants;
import io.locus.workloads.TraceFiles;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import io.locus.workloads.swf.SwfQueueField;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code locus experiment fairness} (issue 24, item 5): what sharing a pool between tenants costs
 * the data-aware policies, and what it buys. Each workload with tenants runs, per data-aware
 * policy P, in four modes on the same cluster and the same queue tree:
 *
 * <ul>
 *   <li>{@code FIFO}: no queues (today's behaviour): the pool is one queue in arrival order and P
 *       places; the tree only measures the run;
 *   <li>{@code FS-FA}: fair share without locality, what Kueue or YuniKorn would do: fair share
 *       picks whose task, the data-blind FA places it on any free slot (one run per workload,
 *       the same for every P);
 *   <li>{@code FS-P-nowait}: fair share with P placing, the locality wait 0 (a held head never
 *       waits for its data while another queue could take the slot);
 *   <li>{@code FS-P}: fair share with P placing within the locality wait (default cap {@value
 *       LocalityWait#DEFAULT_MAX_LOCALITY_WAIT} s, shrinking with the queue's deficit);
 *   <li>{@code FS-P+preempt}: as FS-P, and a queue below its guarantee reclaims slots by
 *       preemption (the core's round, grace {@value Preemption#DEFAULT_GRACE_SECONDS} s; the
 *       victims' work is lost and counted).
 * </ul>
 *
 * <p>Only the {@code +preempt} modes preempt: the others measure fair share and the locality wait
 * alone, a queue below its guarantee waiting for running tasks to end.
 *
 * <p>Measures per run ({@link io.locus.sim.metrics.QueueRecorder}): Jain's index and the share
 * error while contended, the time a starved queue takes to reach its guarantee, per-queue response
 * times, and where input bytes came from (local, peer, storage). The two numbers of the issue's
 * goal: the share-error gap to FS-FA (fairness within a few points of locality-blind fair share)
 * and the local byte share kept against FIFO with the same policy.
 *
 * <p>Output: {@code fairness.csv} and {@code fairness.md} (one row per run), {@code
 * fairness-queues.csv} (one row per run and queue), per run a directory with {@code queues.csv},
 * {@code queue-series.csv} and {@code series.csv}, {@code summary.csv}, and plots (never failing
 * the run where AWT cannot draw).
 */
public final class FairnessExperiment {
  /** The experiment's name in {@code locus experiment}. */
  public static final String NAME = "fairness";

  /** The data-aware policies compared by default. */
  public static final List<String> POLICIES = List.of("MCH", "EFT");

  /**
   * One workload with tenants on its cluster.
   *
   * @param tree the queue tree every mode runs with (FIFO: measured against it only)
   * @param cluster what the workload runs on (label, policy and queues are set per run)
   */
  public record Setup(String name, Workload workload, QueueTree tree,
      SimulationConfig.Builder cluster, String description) {}

  /** One run: its workload, policy (FA for FS-FA), mode and result. */
  public record Run(String workload, String policy, String mode,
      RunResult<DiffusionMetrics> result) {
    QueueMetrics queues() {
      return result.detail().queues();
    }

    String label() {
      return workload + "/" + mode;
    }
  }

  private final Path out;
  private final List<String> policies;
  private final boolean plots;
  private final PrintWriter log;

  public FairnessExperiment(Path out, List<String> policies, boolean plots, PrintWriter log) {
    this.out = out;
    this.policies = List.copyOf(policies);
    this.plots = plots;
    this.log = log;
  }

  /**
   * The policies to compare: {@code requested} (null or empty: {@link #POLICIES}), upper-cased.
   *
   * @throws IllegalArgumentException naming a policy this simulator does not run, or FA (the
   *     locality-blind baseline every run set has already)
   */
  public static List<String> policies(List<String> requested) {
    if (requested == null || requested.isEmpty()) {
      return POLICIES;
    }
    List<String> out = new ArrayList<>();
    for (String p : requested) {
      String name = PolicyRegistry.find(p.trim()).map(d -> d.name()).orElse(null);
      if (name == null || !SimulationConfig.POLICIES.contains(name)) {
        throw new IllegalArgumentException("unknown policy '" + p + "' for the fairness "
            + "experiment; valid: " + String.join(", ", SimulationConfig.POLICIES));
      }
      if (name.equals("FA")) {
        throw new IllegalArgumentException("FA is the experiment's locality-blind baseline "
            + "(FS-FA, FIFO-FA): name the data-aware policies to compare with it");
      }
      if (!out.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ the workloads

  /**
   * The {@code tenants} workload (four tenants, tenant-1 flooding with 100 workflows at t = 0, the
   * others submitting 10 each from t = 60 s) on 8 nodes × 2 slots with 4 GB caches; each tenant
   * weight 1 and a guarantee of 4 slots. {@code quick}: 2 workflows per steady tenant, a flood of 5
   * times that, 4 tasks wide, on 4 nodes × 2 slots with guarantees of 2.
   */
  public static Setup tenants(boolean quick, long seed) {
    Tenants.Options d = Tenants.Options.defaults();
    Tenants.Options o = quick
        ? new Tenants.Options(d.tenants(), 2, 5, d.shape(), 4, d.databaseBytes(), d.rate(),
            d.start(), d.overlap())
        : d;
    int nodes = quick ? 4 : 8;
    int slots = 2;
    List<QueueSpec> specs = new ArrayList<>();
    for (int t = 1; t <= o.tenants(); t++) {
      specs.add(QueueSpec.of(Tenants.tenant(t), null, 1.0, nodes * slots / o.tenants(),
          QueueSpec.UNLIMITED));
    }
    QueueTree tree = QueueTree.build(specs, nodes * slots);
    return new Setup("tenants", Tenants.workload(o, seed), tree, cluster(nodes, slots, 4, seed),
        String.format(Locale.ROOT, "tenants (%s%d workflows of tenant-1 at t = 0, %d of each of"
            + " %d others from t = %s s at %s/s, %d tasks wide), %d nodes x %d slots, 4 GB"
            + " caches, SRP; %d tenants weight 1, guarantee %d slots each",
            quick ? "quick: " : "", o.flood() * o.workflows(), o.workflows(), o.tenants() - 1,
            Numbers.format(o.start()), Numbers.format(o.rate()), o.width(), nodes, slots,
            o.tenants(), nodes * slots / o.tenants()));
  }

  /**
   * An SWF log whose users are the tenants ({@code --swf-queue user}: queue u&lt;N&gt;; a job
   * without a user is in the default queue), its jobs reading the seeded file-set model, on 2
   * nodes × 2 slots with 4 GB caches (the repository's 24-job sample keeps 4 slots busy, not 6);
   * every queue the log uses weight 1 and a guarantee of ⌊slots / queues⌋.
   */
  public static Setup swf(Path file, long seed) throws IOException {
    Workload w = TraceFiles.open(List.of(file), TraceFiles.Format.SWF,
        new TraceFiles.Options(1.0, List.of(), true, seed, SwfQueueField.USER, List.of()));
    TreeSet<String> named = new TreeSet<>();
    boolean anonymous = false;
    for (TraceJob j : w) {
      if (j.queue() == null) {
        anonymous = true;
      } else {
        named.add(j.queue());
      }
    }
    int nodes = 2;
    int slots = 2;
    int queues = named.size() + (anonymous ? 1 : 0);
    int guarantee = queues == 0 ? 0 : nodes * slots / queues;
    List<QueueSpec> specs = new ArrayList<>();
    for (String q : named) {
      specs.add(QueueSpec.of(q, null, 1.0, guarantee, QueueSpec.UNLIMITED));
    }
    if (anonymous) {
      specs.add(QueueSpec.of(QueueTree.DEFAULT, null, 1.0, guarantee, QueueSpec.UNLIMITED));
    }
    String name = "swf-" + file.getFileName().toString().replaceAll("\\.(swf|gz)$", "")
        .replaceAll("\\.swf$", "");
    return new Setup(name, w, QueueTree.build(specs, nodes * slots),
        cluster(nodes, slots, 4, seed),
        String.format(Locale.ROOT, "%s (%d jobs, users as queues: %d queues), %d nodes x %d"
            + " slots, 4 GB caches, SRP; each queue weight 1, guarantee %d slots",
            file.getFileName(), w.size(), queues, nodes, slots, guarantee));
  }

  private static SimulationConfig.Builder cluster(int nodes, int slots, double cacheGb,
      long seed) {
    return SimulationConfig.builder().nodes(nodes).minNodes(nodes).slots(slots)
        .cacheGb(cacheGb).provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0))
        .seed(seed);
  }

  // ------------------------------------------------------------------ running

  /** Every mode of every setup; writes the report and returns the runs in order. */
  public List<Run> run(List<Setup> setups) throws IOException {
    Files.createDirectories(out);
    List<Run> runs = new ArrayList<>();
    for (Setup s : setups) {
      log.printf(Locale.ROOT, "Fairness/locality on %s%n", s.description());
      log.flush();
      double wait = LocalityWait.DEFAULT_MAX_LOCALITY_WAIT;
      runs.add(run(s, "FA", "FIFO-FA", false, wait, Double.NaN));
      runs.add(run(s, "FA", "FS-FA", true, wait, Double.NaN));
      for (String p : policies) {
        runs.add(run(s, p, "FIFO-" + p, false, wait, Double.NaN));
        runs.add(run(s, p, "FS-" + p + "-nowait", true, 0.0, Double.NaN));
        runs.add(run(s, p, "FS-" + p, true, wait, Double.NaN));
        runs.add(run(s, p, "FS-" + p + PREEMPT, true, wait, Preemption.DEFAULT_GRACE_SECONDS));
      }
    }
    report(setups, runs);
    return runs;
  }

  /** The suffix of the modes with preemption. */
  static final String PREEMPT = "+preempt";

  private Run run(Setup s, String policy, String mode, boolean fair, double wait, double grace)
      throws IOException {
    SimulationConfig cfg = s.cluster().policy(policy).label(mode)
        .queues(new SimulationConfig.Queues(s.tree(), fair, wait, grace)).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, s.workload());
    Run run = new Run(s.name(), policy, mode, r);
    QueueMetrics q = run.queues();
    log.printf(Locale.ROOT, "  %-16s T = %9s s  Jain %s  share err %5s %%  to guarantee %7s s"
            + "  local bytes %5s %%  (%d/%d done, %.1f s wall)%n", mode,
        Numbers.seconds(r.detail().times().completionTime()), Numbers.fixed(q.meanJain(), 3),
        Numbers.fixed(100 * q.meanShareError(), 1), Numbers.fixed(worstToGuarantee(q), 1),
        Numbers.fixed(100 * byteShare(r.detail(), 0), 1), r.detail().tasks().completed(),
        r.detail().tasks().released(), r.wallSeconds());
    log.flush();
    Path dir = out.resolve(s.name()).resolve(mode);
    QueueFiles.queues(dir.resolve("queues.csv"), q);
    QueueFiles.series(dir.resolve("queue-series.csv"), q);
    ResultFiles.series(dir.resolve("series.csv"), r.detail().series());
    return run;
  }

  // ------------------------------------------------------------------ measures

  /** Bytes from {@code source} (0 local, 1 peer, 2 storage) over all bytes read; NaN if none. */
  static double byteShare(DiffusionMetrics m, int source) {
    long n = m.io().bytesRead();
    return n == 0 ? Double.NaN : (double) m.io().bytes()[source] / n;
  }

  /** The longest first time to guarantee over the queues that were starved (NaN: none was). */
  static double worstToGuarantee(QueueMetrics q) {
    double worst = Double.NaN;
    for (QueueMetrics.Queue x : q.queues()) {
      if (!Double.isNaN(x.firstToGuarantee())) {
        worst = Double.isNaN(worst) ? x.firstToGuarantee() : Math.max(worst, x.firstToGuarantee());
      }
    }
    return worst;
  }

  /** The run of {@code mode} on {@code workload}, or null. */
  private static Run find(List<Run> runs, String workload, String mode) {
    for (Run r : runs) {
      if (r.workload().equals(workload) && r.mode().equals(mode)) {
        return r;
      }
    }
    return null;
  }

  /** The table's columns, per run (the goal columns relative to FS-FA and FIFO with the policy). */
  private static List<String> header() {
    return List.of("workload", "policy", "mode", "completed", "makespan s", "Jain",
        "share err %", "max queue err %", "vs FS-FA err pts", "worst to guarantee s",
        "mean resp s", "worst queue p99 s", "local bytes %", "peer bytes %", "storage bytes %",
        "local kept vs FIFO %", "preempted", "lost slot-s", "lost % of busy");
  }

  private static List<String> row(List<Run> runs, Run r) {
    DiffusionMetrics m = r.result().detail();
    QueueMetrics q = r.queues();
    Run blind = find(runs, r.workload(), "FS-FA");
    Run fifo = find(runs, r.workload(), "FIFO-" + r.policy());
    double gap = blind == null ? Double.NaN
        : 100 * (q.meanShareError() - blind.queues().meanShareError());
    double kept = fifo == null ? Double.NaN
        : 100 * byteShare(m, 0) / byteShare(fifo.result().detail(), 0);
    double p99 = Double.NaN;
    for (QueueMetrics.Queue x : q.queues()) {
      if (!Double.isNaN(x.p99Response())) {
        p99 = Double.isNaN(p99) ? x.p99Response() : Math.max(p99, x.p99Response());
      }
    }
    return List.of(r.workload(), r.policy(), r.mode(), m.tasks().completed() + "/"
            + m.tasks().released(), Numbers.seconds(m.times().completionTime()),
        Numbers.fixed(q.meanJain(), 3), Numbers.fixed(100 * q.meanShareError(), 1),
        Numbers.fixed(100 * q.maxShareError(), 1), Numbers.fixed(gap, 1),
        Numbers.fixed(worstToGuarantee(q), 1), Numbers.seconds(m.times().meanResponse()),
        Numbers.seconds(p99), Numbers.fixed(100 * byteShare(m, 0), 1),
        Numbers.fixed(100 * byteShare(m, 1), 1), Numbers.fixed(100 * byteShare(m, 2), 1),
        r.mode().startsWith("FIFO") || r.policy().equals("FA") ? "-" : Numbers.fixed(kept, 1),
        Long.toString(q.preempted()), Numbers.fixed(q.lostSlotSeconds(), 1),
        Numbers.fixed(100 * q.lostSlotSeconds() / m.resources().busySlotSeconds(), 2));
  }

  private void report(List<Setup> setups, List<Run> runs) throws IOException {
    List<List<String>> table = new ArrayList<>();
    for (Run r : runs) {
      table.add(row(runs, r));
    }
    Csv.write(out.resolve("fairness.csv"), header(), table);
    ResultFiles.summary(out.resolve("summary.csv"),
        runs.stream().map(Run::result).toList());
    List<String> qHeader = new ArrayList<>(List.of("workload", "policy", "mode"));
    List<List<String>> qRows = new ArrayList<>();
    for (Run r : runs) {
      for (QueueMetrics.Queue x : r.queues().queues()) {
        Map<String, String> m = QueueFiles.row(x);
        if (qHeader.size() == 3) {
          qHeader.addAll(m.keySet());
        }
        List<String> line = new ArrayList<>(List.of(r.workload(), r.policy(), r.mode()));
        line.addAll(m.values());
        qRows.add(line);
      }
    }
    Csv.write(out.resolve("fairness-queues.csv"), qHeader, qRows);
    StringBuilder md = new StringBuilder("# fairness\n\n");
    for (Setup s : setups) {
      md.append("- ").append(s.description()).append('\n');
    }
    md.append('\n').append(Markdown.table(header(), table)).append('\n').append(NOTE)
        .append('\n');
    Files.writeString(out.resolve("fairness.md"), md.toString(), StandardCharsets.UTF_8);
    if (plots) {
      QueuePlots.drawOrWarn(() -> plot(setups, runs), log);
    }
    log.println();
    log.print(Markdown.table(header(), table));
    log.println("Wrote " + out.toAbsolutePath().normalize());
    log.flush();
  }

  static final String NOTE = "Jain: Jain's index of running / fair share over the active queues,"
      + " time-averaged while at least two queues are active; share err: |running - fair share| /"
      + " pool slots, averaged over queues (each over its contended time); vs FS-FA: share error"
      + " minus FS-FA's, in points of the pool; worst to guarantee: the longest time a queue"
      + " waited, from first being below its guarantee with work pending, to reach it; local"
      + " kept: local byte share / FIFO's with the same policy; preempted: attempts stopped by"
      + " preemption (+preempt modes only), lost slot-s: the slot-seconds they had run, start to"
      + " stop (grace included), also as a share of all busy slot-seconds.";

  private List<Path> plot(List<Setup> setups, List<Run> runs) throws IOException {
    List<Path> files = new ArrayList<>();
    Path dir = out.resolve("plots");
    for (Setup s : setups) {
      Map<String, Double> err = new LinkedHashMap<>();
      Map<String, Double> local = new LinkedHashMap<>();
      for (Run r : runs) {
        if (r.workload().equals(s.name())) {
          err.put(r.mode(), 100 * r.queues().meanShareError());
          local.put(r.mode(), 100 * byteShare(r.result().detail(), 0));
        }
      }
      files.add(Plots.bars(dir.resolve(s.name() + "-share-error.png"), s.name()
          + ": mean share error while contended", "% of the pool", err));
      files.add(Plots.bars(dir.resolve(s.name() + "-local-bytes.png"), s.name()
          + ": input bytes read from the node's own cache", "% of bytes read", local));
      for (String p : policies) {
        Map<String, QueueMetrics> jain = new LinkedHashMap<>();
        for (String mode : List.of("FIFO-" + p, "FS-FA", "FS-" + p + "-nowait", "FS-" + p,
            "FS-" + p + PREEMPT)) {
          Run r = find(runs, s.name(), mode);
          if (r != null) {
            jain.put(mode, r.queues());
          }
        }
        files.add(QueuePlots.jain(dir.resolve(s.name() + "-" + p + "-jain.png"),
            s.name() + ", " + p + ": Jain's index over time", jain));
        for (String mode : List.of("FIFO-" + p, "FS-" + p, "FS-" + p + PREEMPT)) {
          Run r = find(runs, s.name(), mode);
          if (r != null) {
            files.addAll(QueuePlots.run(out.resolve(s.name()).resolve(mode),
                s.name() + " " + mode, r.queues()));
          }
        }
      }
    }
    return files;
  }
}
