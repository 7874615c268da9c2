package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.staging.TransferEngine;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagedCache;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * A minimal discrete-event driver of the Khanna-family policies that follows the protocol documented on
 * {@link Scheduler}: Gantt transfers run exactly as reserved, JDPDLL transfers go through the
 * {@link TransferEngine}, equal-time events are applied before one dispatch. It keeps its own view
 * of which files are on which node and checks the commands against it as it goes.
 */
final class VirtualDriver {
  private static final int TRANSFER_END = 0;
  private static final int COMPLETION = 1;
  private static final int ARRIVAL = 2;

  private record Ev(double time, long seq, int kind, String file, String node, Task task,
      TransferEngine.Transfer transfer) {}

  final Scheduler sched;
  final CostModel cost;
  TransferEngine engine;
  private PriorityQueue<Ev> events =
      new PriorityQueue<>(Comparator.comparingDouble(Ev::time).thenComparingLong(Ev::seq));
  private long evSeq;
  final List<String> log = new ArrayList<>();
  Map<String, Set<String>> present = new HashMap<>();
  Map<String, Set<String>> inFlight = new HashMap<>();
  Map<String, Task> runningOn = new HashMap<>();
  Map<String, Set<String>> waitingFor = new HashMap<>();
  /** Every reserved interval per storage node and per destination node, over the whole run. */
  Map<String, List<double[]>> reserved = new HashMap<>();
  Map<String, Double> completed = new LinkedHashMap<>();
  long evictions;
  long replicas;
  double now;

  VirtualDriver(Scheduler sched, CostModel cost) {
    this.sched = sched;
    this.cost = cost;
    this.engine = new TransferEngine(cost);
  }

  void submit(Task t) {
    push(t.submitTime(), ARRIVAL, null, null, t, null);
  }

  void run() {
    runUntil(Double.POSITIVE_INFINITY);
  }

  void runUntil(double limit) {
    while (!events.isEmpty() && events.peek().time() <= limit) {
      step();
    }
  }

  boolean idle() {
    return events.isEmpty();
  }

  /** The same pending events and driver state, over another scheduler (a restored one). */
  VirtualDriver fork(Scheduler other) {
    VirtualDriver f = new VirtualDriver(other, cost);
    f.engine = engine.copy();
    f.events = new PriorityQueue<>(events);
    f.evSeq = evSeq;
    f.present = deepCopy(present);
    f.inFlight = deepCopy(inFlight);
    f.runningOn = new HashMap<>(runningOn);
    f.waitingFor = deepCopy(waitingFor);
    f.now = now;
    return f;
  }

  private static Map<String, Set<String>> deepCopy(Map<String, Set<String>> m) {
    Map<String, Set<String>> c = new HashMap<>();
    m.forEach((k, v) -> c.put(k, new HashSet<>(v)));
    return c;
  }

  private void push(double time, int kind, String file, String node, Task task,
      TransferEngine.Transfer tr) {
    events.add(new Ev(time, evSeq++, kind, file, node, task, tr));
  }

  private Set<String> set(Map<String, Set<String>> m, String node) {
    return m.computeIfAbsent(node, k -> new HashSet<>());
  }

  private void step() {
    double t = events.peek().time();
    assertThat(t).isGreaterThanOrEqualTo(now);
    now = t;
    List<Ev> batch = new ArrayList<>();
    while (!events.isEmpty() && events.peek().time() == t) {
      batch.add(events.poll());
    }
    for (Ev e : batch) {
      switch (e.kind()) {
        case TRANSFER_END -> {
          if (e.transfer() != null) {
            engine.finish(e.transfer());
          }
          assertThat(set(inFlight, e.node()).remove(e.file())).isTrue();
          set(present, e.node()).add(e.file());
          assertThat(sched.applyTransferEnd(e.file(), e.node())).isTrue();
          Set<String> w = waitingFor.get(e.node());
          if (w != null && w.remove(e.file()) && w.isEmpty()) {
            waitingFor.remove(e.node());
            Task job = runningOn.get(e.node());
            push(t + cost.readComputeSeconds(job.totalBytes()), COMPLETION, null, e.node(), job,
                null);
          }
        }
        case COMPLETION -> {
          assertThat(sched.applyTaskCompleted(e.task().taskId(), e.task().attempt(), e.node(), 0,
              0, 0)).isEqualTo(PoolState.EndOutcome.COMPLETED);
          runningOn.remove(e.node());
          completed.put(e.task().taskId(), t);
        }
        default -> sched.applyJobArrival(e.task());
      }
    }
    List<Command> cmds = sched.dispatch(t);
    execute(cmds, t);
    for (TransferEngine.Transfer tr : engine.start(t)) {
      log.add(String.format("%.9f start %s->%s [%.9f,%.9f)", t, tr.file(), tr.node(), tr.start(),
          tr.end()));
      push(tr.end(), TRANSFER_END, tr.file(), tr.node(), null, tr);
    }
    checkCapacities();
  }

  private void execute(List<Command> cmds, double t) {
    for (int i = 0; i < cmds.size(); i++) {
      Command c = cmds.get(i);
      log.add(String.format("%.9f %s", t, c));
      if (c instanceof Command.Evict ev) {
        Set<String> protectedFiles = new HashSet<>();
        Task running = runningOn.get(ev.node());
        if (running != null) {
          running.inputs().forEach(u -> protectedFiles.add(u.id()));
        }
        for (int k = i + 1; k < cmds.size(); k++) {
          if (cmds.get(k) instanceof Command.Run r && r.node().equals(ev.node())) {
            r.task().inputs().forEach(u -> protectedFiles.add(u.id()));
            break;
          }
        }
        for (String f : ev.files()) {
          assertThat(set(present, ev.node())).as("evicted %s is present", f).contains(f);
          assertThat(set(inFlight, ev.node())).doesNotContain(f);
          assertThat(protectedFiles).as("evicted %s of a starting/running job", f).doesNotContain(f);
          set(present, ev.node()).remove(f);
        }
        evictions += ev.files().size();
      } else if (c instanceof Command.Run r) {
        assertThat(runningOn.put(r.node(), r.task())).as("one job per node").isNull();
        if (r.hasPlannedCompletion()) {
          runGantt(r, t);
        } else {
          runFifo(r);
        }
      } else if (c instanceof Command.Replicate rep) {
        assertThat(rep.source()).isEqualTo(InputSource.STORAGE);
        assertThat(set(present, rep.node())).doesNotContain(rep.unit().id());
        assertThat(set(inFlight, rep.node()).add(rep.unit().id())).isTrue();
        engine.submit(rep.unit().id(), rep.unit().bytes(), cost.storageOf(rep.unit()), rep.node());
        replicas++;
      } else {
        throw new AssertionError("unexpected command " + c);
      }
    }
  }

  private void runGantt(Command.Run r, double t) {
    double last = t;
    for (InputFetch in : r.inputs()) {
      String f = in.unit().id();
      if (in.reservation() == null) {
        assertThat(in.source()).isEqualTo(InputSource.LOCAL);
        assertThat(set(present, r.node())).as("local %s on %s", f, r.node()).contains(f);
        continue;
      }
      InputFetch.Reservation res = in.reservation();
      assertThat(in.source()).isEqualTo(InputSource.STORAGE);
      assertThat(res.storageNode()).isEqualTo(cost.storageOf(in.unit()));
      assertThat(res.start()).isGreaterThanOrEqualTo(t);
      assertThat(res.end() - res.start())
          .isCloseTo(cost.transferSeconds(in.unit().bytes()), within(1e-9));
      reserved.computeIfAbsent("SN" + res.storageNode(), k -> new ArrayList<>())
          .add(new double[] {res.start(), res.end()});
      reserved.computeIfAbsent("to " + r.node(), k -> new ArrayList<>())
          .add(new double[] {res.start(), res.end()});
      assertThat(set(inFlight, r.node()).add(f)).isTrue();
      push(res.end(), TRANSFER_END, f, r.node(), null, null);
      last = Math.max(last, res.end());
    }
    assertThat(r.plannedCompletion())
        .isCloseTo(last + cost.readComputeSeconds(r.task().totalBytes()), within(1e-9));
    push(r.plannedCompletion(), COMPLETION, null, r.node(), r.task(), null);
  }

  private void runFifo(Command.Run r) {
    Set<String> waiting = new HashSet<>();
    for (InputFetch in : r.inputs()) {
      InputFile u = in.unit();
      assertThat(in.reservation()).isNull();
      if (in.source() == InputSource.STORAGE) {
        assertThat(set(inFlight, r.node()).add(u.id())).isTrue();
        engine.submit(u.id(), u.bytes(), cost.storageOf(u), r.node());
        waiting.add(u.id());
      } else if (!set(present, r.node()).contains(u.id())) {
        assertThat(set(inFlight, r.node())).contains(u.id()); // a replica on its way
        waiting.add(u.id());
      }
    }
    if (waiting.isEmpty()) {
      push(now + cost.readComputeSeconds(r.task().totalBytes()), COMPLETION, null, r.node(),
          r.task(), null);
    } else {
      waitingFor.put(r.node(), waiting);
    }
  }

  /** The scheduler's staged caches agree with the driver's view and stay within capacity. */
  private void checkCapacities() {
    PoolState s = sched.state();
    if (!s.hasStaging()) {
      return;
    }
    for (var n : s.nodes()) {
      StagedCache c = s.staging().cache(n.id());
      Set<String> all = new HashSet<>(set(present, n.id()));
      all.addAll(set(inFlight, n.id()));
      assertThat(c.files()).containsExactlyInAnyOrderElementsOf(all);
      for (String f : set(inFlight, n.id())) {
        assertThat(c.isInFlight(f)).isTrue();
      }
      if (!(sched.policy() instanceof Jdpdll)) {
        // JDPDLL may go over when in-flight replicas and the job's files fill a node (§3.1)
        assertThat(c.used()).isLessThanOrEqualTo(c.capacity());
      }
    }
  }

  /** No two reserved intervals overlap on any storage node or any destination's ingress. */
  void assertReservationsNeverOverlap() {
    for (Map.Entry<String, List<double[]>> e : reserved.entrySet()) {
      List<double[]> ivs = new ArrayList<>(e.getValue());
      ivs.sort(Comparator.comparingDouble(iv -> iv[0]));
      for (int i = 1; i < ivs.size(); i++) {
        assertThat(ivs.get(i)[0]).as("overlap on %s", e.getKey())
            .isGreaterThanOrEqualTo(ivs.get(i - 1)[1]);
      }
    }
  }
}
