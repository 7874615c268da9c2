package io.locus.sim.cern;

import io.locus.core.split.CostSegment;
import io.locus.core.split.JobOutcome;
import io.locus.core.split.SplitCommand;
import io.locus.core.split.SplitJob;
import io.locus.core.split.SplitPolicies;
import io.locus.core.split.SplitPolicy;
import io.locus.sim.engine.Engine;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.engine.Model;
import io.locus.sim.engine.RunResult;
import io.locus.workloads.TraceJob;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CERN spec's model in virtual time, a {@link Model} of the {@link Engine}: n single-slot nodes
 * driven by a {@link SplitPolicy} through the same calls as the streaming job. A RUN's completion
 * time follows from its per-event costs fixed at dispatch (§1.3); SHRINK reschedules it, SUSPEND
 * cancels it.
 * Stops are acknowledged at once with the model position (the simulator's own position of the
 * subjob, checked against the policy's), so held RUNs are released in the same instant and results
 * are those of the pure model. Cache materialisation before every decision happens inside the core.
 *
 * <p>Equal timestamps: events are delivered one at a time in (time, scheduling) order, every
 * arrival before what else falls due at its instant (the arrivals are scheduled first); a subjob
 * ending at the same instant has no remaining events in the model, so the policy never splits or
 * steals it. The run ends after the event that completes it (every measured job done and the
 * window over), or, with early stop, after the event that settles an overload verdict (a cut run,
 * {@link io.locus.sim.engine.Ending#STOPPED}). Deterministic for a workload and seed; reads no
 * clock except, optionally, the thread CPU time spent inside policy calls (master load, E12),
 * which does not influence decisions.
 */
public final class CernSimulation implements Model<CernSimulation.Metrics> {
  /** The simulator model name in {@link RunResult#model()}. */
  public static final String MODEL = "cern";

  /** What to simulate. */
  public record Config(String policy, Map<String, String> params, int nodes,
      boolean measureCpu) {
    public Config {
      if (nodes < 1) {
        throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
      }
      params = Map.copyOf(params);
    }
  }

  /**
   * The measurement window of §6.2: jobs arriving in [from, to) are measured; the run stops when
   * every measured job has finished, or earlier, once the window is over, when the quarter-based
   * overload test can no longer come out "not overloaded" ({@code earlyStop}: waits only grow, so
   * the verdict is the one the full run would give).
   */
  public record Window(double from, double to, boolean earlyStop, double maxPeriod) {
    public double quarter() {
      return (to - from) / 4;
    }
  }

  /** A finished (or, for cut runs, started) measured job. */
  public record Measured(String jobId, double arrival, double released, double firstStart,
      double end, long events, long local, long remote, long tape, boolean priority,
      boolean replicated) {
    public double waitExcl() {
      return firstStart - released;
    }

    public double waitIncl() {
      return firstStart - arrival;
    }

    public double processing() {
      return end - firstStart;
    }

    public double response() {
      return end - arrival;
    }

    public double speedup() {
      return events * io.locus.core.split.EventCosts.FARM_REFERENCE / processing();
    }
  }

  /**
   * What one run measured beyond the {@link RunResult}'s common fields (whose end time is the
   * simulated time, and whose scheduler load is the master load). {@code overloaded} is the
   * spec's quarter test on waiting times; {@code backlogOverloaded} is our companion test, the
   * same rule on the pool's backlog (events of arrived, unfinished jobs, time-averaged over the
   * second and last quarter of the window): overloaded when the Q4 mean exceeds twice the Q2 mean
   * plus one hour of the pool's tape work. Waiting times only grow under overload for FIFO-like
   * policies; the backlog grows for all. {@code cut}: the run stopped early (its verdict settled).
   */
  public record Metrics(Config config, Window window, List<Measured> measured,
      boolean overloaded, boolean cut, long policyCalls, long replications, double meanWaitQ2,
      double meanWaitQ4, double meanBacklogQ2, double meanBacklogQ4,
      boolean backlogOverloaded) {}

  private static final class Exec {
    final String node;
    final String job;
    final long start;
    long end;
    final double dispatch;
    final List<CostSegment> segments;
    int version;

    Exec(SplitCommand.Run r, double t) {
      node = r.node();
      job = r.jobId();
      start = r.range().start();
      end = r.range().end();
      dispatch = t;
      segments = r.segments();
    }

    double endTime() {
      return dispatch + CostSegment.cost(segments, start, end);
    }

    /** pos(t) with the same slack as the core. */
    long pos(double t) {
      double el = t - dispatch + 1e-6;
      double acc = 0;
      for (CostSegment s : segments) {
        long a = Math.max(start, s.range().start());
        long b = Math.min(end, s.range().end());
        if (a >= b) {
          continue;
        }
        double c = (b - a) * s.secondsPerEvent();
        if (acc + c <= el) {
          acc += c;
        } else {
          return a + Math.max(0, Math.min(b - a, (long) Math.floor((el - acc)
              / s.secondsPerEvent())));
        }
      }
      return end;
    }
  }

  private final Config config;
  private final Window window;
  private final Iterable<TraceJob> jobs;
  private final SplitPolicy policy;
  private Engine engine;
  private EventQueue queue;
  private final Map<String, Exec> running = new HashMap<>();
  private final Map<String, SplitCommand.Run> held = new LinkedHashMap<>();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private double now;
  private double timerAt = Double.POSITIVE_INFINITY;
  private double cpuNanos;
  private long calls;
  private long finishedJobs;
  private long sinceCheck;
  private boolean cut;

  // measured jobs: arrival order index
  private final Map<String, Integer> measuredIndex = new HashMap<>();
  private final List<String> measuredIds = new ArrayList<>();
  private final List<Double> measuredArrival = new ArrayList<>();
  private double[] firstStart;
  private double[] released;
  private final List<Measured> finished = new ArrayList<>();
  private int unfinishedMeasured;
  /** Events of arrived, unfinished jobs, and its time integrals over Q2 and Q4. */
  private long backlog;
  private double backlogAt;
  private final double[] backlogIntegral = new double[2];

  private CernSimulation(Config config, Iterable<TraceJob> jobs, Window window) {
    this.config = config;
    this.window = window;
    this.jobs = jobs;
    this.policy = SplitPolicies.create(config.policy(), config.params());
  }

  /** Runs {@code jobs} (splittable trace jobs, by arrival) on a fresh pool. */
  public static RunResult<Metrics> run(Config config, Iterable<TraceJob> jobs, Window window) {
    return new Engine().run(new CernSimulation(config, jobs, window));
  }

  /** Schedules every arrival first (they win ties), then registers the nodes. */
  @Override
  public void start(Engine e) {
    engine = e;
    queue = e.queue();
    List<TraceJob> all = new ArrayList<>();
    double last = Double.NEGATIVE_INFINITY;
    for (TraceJob j : jobs) {
      if (j.events() == null) {
        throw new IllegalArgumentException("job " + j.jobId() + " has no event range: the CERN "
            + "simulator runs splittable jobs (workload 'cern')");
      }
      if (j.arrival() < last) {
        throw new IllegalArgumentException("job " + j.jobId() + " arrives at " + j.arrival()
            + " s, before the job listed before it (" + last + " s): jobs must come by arrival");
      }
      last = j.arrival();
      all.add(j);
      if (j.arrival() >= window.from() && j.arrival() < window.to()) {
        measuredIndex.put(j.jobId(), measuredIds.size());
        measuredIds.add(j.jobId());
        measuredArrival.add(j.arrival());
      }
    }
    firstStart = new double[measuredIds.size()];
    released = new double[measuredIds.size()];
    Arrays.fill(firstStart, Double.NaN);
    Arrays.fill(released, Double.NaN);
    unfinishedMeasured = measuredIds.size();
    if (measuredIds.isEmpty()) {
      throw new IllegalArgumentException("no job arrives in the measurement window [" + window.from()
          + ", " + window.to() + ") s: use more jobs or a higher load");
    }
    for (TraceJob j : all) {
      queue.schedule(j.arrival(), () -> arrived(j));
    }
    for (int i = 1; i <= config.nodes(); i++) {
      String node = "n" + i;
      execute(call(() -> policy.addNode(node, 0)));
    }
  }

  /** Every measured job has finished and the window is over. */
  @Override
  public boolean finished() {
    return unfinishedMeasured <= 0 && now >= window.to();
  }

  @Override
  public void elapse(double from, double to) {
    advance(to);
  }

  private void arrived(TraceJob j) {
    backlog += j.events().length();
    SplitJob sj = new SplitJob(j.jobId(), j.events());
    execute(call(() -> policy.onJobArrival(sj, now)));
    afterEvent();
  }

  private void subjobEnded(String id, int version) {
    Exec x = running.get(id);
    if (x == null || x.version != version) {
      endIfFinished(); // a stale end: superseded by a SHRINK, or SUSPENDed
      return;
    }
    running.remove(id);
    execute(call(() -> policy.onSubjobEnd(x.node, id, x.end, now)));
    afterEvent();
  }

  private void timer(double at) {
    if (at == timerAt) {
      timerAt = Double.POSITIVE_INFINITY;
      execute(call(() -> policy.onTimer(now)));
    }
    afterEvent();
  }

  /** Early stop: every 2,000 events once the window is over, is the overload verdict settled? */
  private void afterEvent() {
    if (window.earlyStop() && ++sinceCheck >= 2000 && now >= window.to()) {
      sinceCheck = 0; // (the backlog test needs the whole window simulated)
      if (verdictIsOverloaded()) {
        cut = true;
        engine.stop();
        return;
      }
    }
    endIfFinished();
  }

  private void endIfFinished() {
    if (finished()) {
      engine.stop();
    }
  }

  @Override
  public RunResult<Metrics> result(Engine.Outcome outcome) {
    if (outcome.ending() == io.locus.sim.engine.Ending.EXHAUSTED) {
      throw new IllegalStateException(config.policy() + ": nothing left to happen at " + now
          + " s but " + unfinishedMeasured + " measured jobs are unfinished");
    }
    advance(Math.max(now, window.to()));
    double[] q = quarterMeans();
    boolean overloaded = q[1] > 2 * q[0] + 3600;
    double qlen = window.quarter();
    double b2 = backlogIntegral[0] / qlen;
    double b4 = backlogIntegral[1] / qlen;
    double hourOfWork = config.nodes() * 3600 / io.locus.core.split.SplitParams.parse(
        config.policy(), config.params()).costs().cMiss();
    boolean backlogOverloaded = b4 > 2 * b2 + hourOfWork;
    if (cut && !overloaded) {
      throw new IllegalStateException("a run was cut although its verdict was not settled");
    }
    List<Measured> out = new ArrayList<>(finished);
    if (cut) { // jobs that started but did not finish count for waiting only
      for (int i = 0; i < measuredIds.size(); i++) {
        if (!Double.isNaN(firstStart[i]) && !isFinished(i)) {
          out.add(new Measured(measuredIds.get(i), measuredArrival.get(i), released[i],
              firstStart[i], Double.NaN, 0, 0, 0, 0, false, false));
        }
      }
    }
    out.sort((a, b) -> Integer.compare(measuredIndex.get(a.jobId()),
        measuredIndex.get(b.jobId())));
    Metrics m = new Metrics(config, window, out, overloaded, cut, calls, policy.replications(),
        q[0], q[1], b2, b4, backlogOverloaded);
    return new RunResult<>(MODEL, config.policy(), config.policy(), outcome.ending(), now,
        outcome.events(), finishedJobs, config.measureCpu() ? cpuNanos / 1e9 : Double.NaN,
        outcome.wallSeconds(), m);
  }

  private final Set<String> done = new HashSet<>();

  /** Moves the clock, integrating the backlog over the Q2 and Q4 time intervals. */
  private void advance(double t) {
    double to = Math.max(now, t);
    double q = window.quarter();
    double[][] spans = {{window.from() + q, window.from() + 2 * q},
        {window.from() + 3 * q, window.to()}};
    for (int k = 0; k < 2; k++) {
      double a = Math.max(backlogAt, spans[k][0]);
      double b = Math.min(to, spans[k][1]);
      if (b > a) {
        backlogIntegral[k] += backlog * (b - a);
      }
    }
    backlogAt = to;
    now = to;
  }

  private boolean isFinished(int i) {
    return done.contains(measuredIds.get(i));
  }

  /**
   * {mean wait of Q2, mean wait of Q4} (W_excl; for jobs not started yet, the lower bound
   * max(0, now − arrival − maxPeriod)).
   */
  private double[] quarterMeans() {
    double q = window.quarter();
    double[] sum = new double[2];
    int[] n = new int[2];
    for (int i = 0; i < measuredIds.size(); i++) {
      double a = measuredArrival.get(i);
      int k = a >= window.from() + q && a < window.from() + 2 * q ? 0
          : a >= window.from() + 3 * q ? 1 : -1;
      if (k < 0) {
        continue;
      }
      double w = !Double.isNaN(firstStart[i]) ? firstStart[i] - released[i]
          : Math.max(0, now - a - window.maxPeriod());
      sum[k] += w;
      n[k]++;
    }
    return new double[] {n[0] == 0 ? 0 : sum[0] / n[0], n[1] == 0 ? 0 : sum[1] / n[1]};
  }

  private boolean verdictIsOverloaded() {
    double q = window.quarter();
    for (int i = 0; i < measuredIds.size(); i++) {
      double a = measuredArrival.get(i);
      if (a >= window.from() + q && a < window.from() + 2 * q && Double.isNaN(firstStart[i])) {
        return false; // Q2 not settled yet
      }
    }
    double[] m = quarterMeans();
    return m[1] > 2 * m[0] + 3600;
  }

  private interface Call {
    List<SplitCommand> get();
  }

  private List<SplitCommand> call(Call c) {
    calls++;
    if (!config.measureCpu()) {
      return c.get();
    }
    long t0 = threads.getCurrentThreadCpuTime();
    List<SplitCommand> r = c.get();
    cpuNanos += threads.getCurrentThreadCpuTime() - t0;
    return r;
  }

  /** Executes commands in order, then acknowledges the stops of the list (model positions). */
  private void execute(List<SplitCommand> cmds) {
    List<String> stopIds = new ArrayList<>();
    List<Long> stopAt = new ArrayList<>();
    for (SplitCommand c : cmds) {
      if (c instanceof SplitCommand.Run r) {
        if (r.held()) {
          held.put(r.subjobId(), r);
        } else {
          start(r);
        }
      } else if (c instanceof SplitCommand.Suspend s) {
        Exec x = running.remove(s.subjobId());
        if (x == null) {
          throw new IllegalStateException("SUSPEND of " + s.subjobId() + ", which is not running");
        }
        long p = x.pos(now);
        if (p != s.modelPosition()) {
          throw new IllegalStateException("SUSPEND of " + s.subjobId() + ": simulator at " + p
              + ", policy model at " + s.modelPosition());
        }
        stopIds.add(s.subjobId());
        stopAt.add(p);
      } else if (c instanceof SplitCommand.Shrink s) {
        Exec x = running.get(s.subjobId());
        if (x == null || x.pos(now) > s.newEnd()) {
          throw new IllegalStateException("SHRINK of " + s.subjobId() + " to " + s.newEnd()
              + " is not possible in the simulator");
        }
        x.end = s.newEnd();
        int version = ++x.version;
        String id = s.subjobId();
        queue.schedule(Math.max(now, x.endTime()), () -> subjobEnded(id, version));
        stopIds.add(s.subjobId());
        stopAt.add(s.newEnd());
      }
    }
    for (int i = 0; i < stopIds.size(); i++) {
      String id = stopIds.get(i);
      long p = stopAt.get(i);
      List<SplitCommand> released = call(() -> policy.acknowledgeStop(id, p, now));
      Set<String> back = new HashSet<>();
      for (SplitCommand c : released) {
        back.add(c.subjobId());
      }
      held.values().removeIf(r -> id.equals(r.awaitsAckOf()) && !back.contains(r.subjobId()));
      execute(released);
    }
    collect();
    double next = policy.nextTimerAt();
    if (next < timerAt) {
      double at = Math.max(next, now);
      timerAt = at;
      queue.schedule(at, () -> timer(at));
    }
  }

  private void start(SplitCommand.Run r) {
    held.remove(r.subjobId());
    Exec x = new Exec(r, now);
    running.put(r.subjobId(), x);
    String id = r.subjobId();
    queue.schedule(x.endTime(), () -> subjobEnded(id, 0));
    Integer i = measuredIndex.get(r.jobId());
    if (i != null && Double.isNaN(firstStart[i])) {
      firstStart[i] = now;
      released[i] = policy.releasedAt(r.jobId());
    }
  }

  private void collect() {
    for (JobOutcome o : policy.drainFinished()) {
      if (o.localEvents() + o.remoteEvents() + o.tapeEvents() != o.eventCount()) {
        throw new IllegalStateException("job " + o.jobId() + " processed "
            + (o.localEvents() + o.remoteEvents() + o.tapeEvents()) + " of " + o.eventCount()
            + " events");
      }
      backlog -= o.eventCount();
      finishedJobs++;
      Integer i = measuredIndex.get(o.jobId());
      if (i != null) {
        done.add(o.jobId());
        unfinishedMeasured--;
        finished.add(new Measured(o.jobId(), o.arrival(), o.released(), o.firstStart(), o.end(),
            o.eventCount(), o.localEvents(), o.remoteEvents(), o.tapeEvents(), o.priority(),
            o.replicated()));
      }
    }
  }
}
