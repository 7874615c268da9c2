package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A virtual-time driver for the split core in tests: plays agents that execute RUN, SUSPEND and
 * SHRINK, hold RUNs that await an acknowledgement, and acknowledge stops exactly (as the simulator
 * does) or like a real agent would (ahead of or behind the model, late, or by ending first). It
 * records every processed event range per job, to check that each event is processed exactly once.
 * Jobs may be cancelled ({@link #cancel}): their agents stop at a CANCEL (at once, or later in
 * LATE mode) and report the position reached; nothing of a cancelled job may run after it.
 */
final class SplitTestDriver {
  enum Ack {
    /** At once, at the model position (the simulator). */
    EXACT,
    /** At once, past the model position. */
    AHEAD,
    /** At once; SUSPEND behind the model position. */
    BEHIND,
    /** Later (the agent's reply takes time); sometimes the end comes first. */
    LATE
  }

  private record Ev(double t, long seq, int kind, String id, String node, long pos, int version) {}

  private static final int ARRIVAL = 0;
  private static final int END = 1;
  private static final int ACK = 2;
  private static final int TIMER = 3;
  private static final int SUSPENDED_END = 4;
  private static final int NODE_LOST = 5;
  private static final int NODE_JOINS = 6;
  private static final int CANCEL = 7;
  private static final int CANCELLED_END = 8;

  private static final class AgentRun {
    final String node;
    final String job;
    final long start;
    long end;
    final double dispatch;
    final List<CostSegment> segments;
    int version;

    AgentRun(SplitCommand.Run r, double t) {
      node = r.node();
      job = r.jobId();
      start = r.range().start();
      end = r.range().end();
      dispatch = t;
      segments = r.segments();
    }

    long posAt(double t) {
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
          return a + (long) Math.floor((el - acc) / s.secondsPerEvent());
        }
      }
      return end;
    }
  }

  SplitPolicy policy;
  private final Ack mode;
  private final SplittableRandom rng;
  private final PriorityQueue<Ev> events = new PriorityQueue<>((a, b) ->
      a.t != b.t ? Double.compare(a.t, b.t) : Long.compare(a.seq, b.seq));
  private long seq;
  double now;
  private final Map<String, SplitJob> arrivals = new HashMap<>();
  private final Map<String, AgentRun> agent = new LinkedHashMap<>();
  private final Map<String, SplitCommand.Run> held = new LinkedHashMap<>();
  private final Set<String> pendingAcks = new HashSet<>();
  /** Per job: processed [start, end) ranges. */
  final Map<String, List<long[]>> processed = new TreeMap<>();
  final List<String> log = new ArrayList<>();
  boolean logging = true;
  final List<JobOutcome> outcomes = new ArrayList<>();
  int suspends;
  int shrinks;
  int corrections;
  private double timerAt = Double.POSITIVE_INFINITY;
  /** Jobs cancelled while unfinished. */
  final Set<String> cancelled = new HashSet<>();
  /** With {@link #journalled}: what the policy's journal wrote, as a durable store would hold. */
  JournalReplica journal;
  private boolean checkJournal;

  SplitTestDriver(SplitPolicy policy, Ack mode, long seed) {
    this.policy = policy;
    this.mode = mode;
    this.rng = new SplittableRandom(seed);
  }

  /**
   * From now on the policy writes its state in parts to {@link #journal}; with {@code check},
   * after every input the journal must hold exactly the policy's whole state.
   */
  void journalled(boolean check) {
    journal = new JournalReplica();
    policy.exportTo(journal);
    policy.journal(journal);
    checkJournal = check;
  }

  /** Carries on with {@code p} (restored from {@link #journal}), journalled the same way. */
  void continueWith(SplitPolicy p) {
    policy = p;
    p.journal(journal);
  }

  void addNodes(int n) {
    for (int i = 1; i <= n; i++) {
      execute(policy.addNode("n" + i, now));
    }
  }

  /** At t the node is lost: whatever it runs is gone, nothing of it counts. */
  void loseNode(String node, double t) {
    push(t, NODE_LOST, null, node, 0, 0);
  }

  void addNode(String node, double t) {
    push(t, NODE_JOINS, null, node, 0, 0);
  }

  /** Submits {@link SplitConservationTest#workload}'s jobs at their arrival times. */
  void submitWorkload(long seed, int jobs, long space, double meanGap) {
    List<Double> at = new ArrayList<>();
    List<SplitJob> js = SplitConservationTest.workload(seed, jobs, space, meanGap, at);
    for (int i = 0; i < js.size(); i++) {
      submit(js.get(i), at.get(i));
    }
  }

  void submit(SplitJob j, double t) {
    arrivals.put(j.id(), j);
    push(t, ARRIVAL, j.id(), null, 0, 0);
  }

  /** At t the job is cancelled, if it has arrived and is not finished then. */
  void cancel(String job, double t) {
    push(t, CANCEL, job, null, 0, 0);
  }

  private void push(double t, int kind, String id, String node, long pos, int version) {
    events.add(new Ev(t, seq++, kind, id, node, pos, version));
  }

  /** Runs until nothing is left (or {@code until}); returns the number of events handled. */
  long runUntil(double until) {
    long n = 0;
    while (!events.isEmpty() && events.peek().t <= until) {
      Ev e = events.poll();
      now = Math.max(now, e.t);
      n++;
      switch (e.kind) {
        case ARRIVAL -> execute(policy.onJobArrival(arrivals.get(e.id), now));
        case END -> {
          AgentRun a = agent.get(e.id);
          if (a == null || a.version != e.version) {
            continue;
          }
          agent.remove(e.id);
          record(a.job, a.start, a.end);
          boolean wasPending = pendingAcks.remove(e.id);
          List<SplitCommand> cmds = policy.onSubjobEnd(a.node, e.id, a.end, now);
          if (wasPending) {
            afterAck(e.id, cmds);
          }
          execute(cmds);
        }
        case SUSPENDED_END -> {
          boolean wasPending = pendingAcks.remove(e.id);
          List<SplitCommand> cmds = policy.onSubjobEnd(e.node, e.id, e.pos, now);
          if (wasPending) {
            afterAck(e.id, cmds);
          }
          execute(cmds);
        }
        case ACK -> {
          boolean wasPending = pendingAcks.remove(e.id);
          List<SplitCommand> cmds = policy.acknowledgeStop(e.id, e.pos, now);
          if (wasPending) {
            afterAck(e.id, cmds);
          } else {
            assertThat(cmds).as("a duplicate acknowledgement changes nothing").isEmpty();
          }
          execute(cmds);
        }
        case NODE_LOST -> {
          agent.values().removeIf(a -> a.node.equals(e.node));
          execute(policy.removeNode(e.node, now));
        }
        case NODE_JOINS -> execute(policy.addNode(e.node, now));
        case CANCEL -> {
          if (Double.isNaN(policy.releasedAt(e.id))) {
            continue; // finished already
          }
          cancelled.add(e.id);
          held.values().removeIf(r -> r.jobId().equals(e.id)); // the policy drops them
          execute(policy.cancelJob(e.id, now));
        }
        case CANCELLED_END -> execute(policy.onSubjobEnd(e.node, e.id, e.pos, now));
        case TIMER -> {
          if (e.t == timerAt) {
            timerAt = Double.POSITIVE_INFINITY;
            execute(policy.onTimer(now));
          }
        }
        default -> throw new IllegalStateException();
      }
    }
    return n;
  }

  long run() {
    return runUntil(Double.POSITIVE_INFINITY);
  }

  private void afterAck(String id, List<SplitCommand> cmds) {
    Set<String> returned = new HashSet<>();
    for (SplitCommand c : cmds) {
      if (c instanceof SplitCommand.Run r) {
        returned.add(r.subjobId());
      }
    }
    held.values().removeIf(r -> id.equals(r.awaitsAckOf()) && !returned.contains(r.subjobId()));
  }

  /** Executes commands in order; acknowledgements are sent after the whole list. */
  void execute(List<SplitCommand> cmds) {
    List<long[]> acks = new ArrayList<>();
    List<String> ackIds = new ArrayList<>();
    for (SplitCommand c : cmds) {
      if (logging) {
        log.add(String.format(java.util.Locale.ROOT, "%.6f %s", now, c));
      }
      if (!(c instanceof SplitCommand.Cancel)) {
        String job = c.subjobId().substring(0, c.subjobId().lastIndexOf('/'));
        assertThat(cancelled).as("nothing of a cancelled job is run or stopped: %s", c)
            .doesNotContain(job);
      }
      if (c instanceof SplitCommand.Cancel k) {
        AgentRun a = agent.remove(k.subjobId());
        assertThat(a).as("cancelled subjob runs").isNotNull();
        long pos = Math.min(a.end, a.posAt(now));
        record(a.job, a.start, pos);
        push(mode == Ack.LATE ? now + 1 + rng.nextInt(30) : now, CANCELLED_END, k.subjobId(),
            a.node, pos, 0);
      } else if (c instanceof SplitCommand.Run r) {
        {
          if (r.held()) {
            held.put(r.subjobId(), r);
          } else {
            held.remove(r.subjobId());
            for (AgentRun busy : agent.values()) {
              if (busy.node.equals(r.node())) {
                throw new AssertionError(r.node() + " is busy; cannot start " + r);
              }
            }
            AgentRun a = new AgentRun(r, now);
            agent.put(r.subjobId(), a);
            push(now + r.cost(), END, r.subjobId(), r.node(), 0, a.version);
          }
        }
      } else if (c instanceof SplitCommand.Suspend s) {
        {
          suspends++;
          AgentRun a = agent.remove(s.subjobId());
          assertThat(a).as("suspended subjob runs").isNotNull();
          long model = s.modelPosition();
          assertThat(model).isEqualTo(a.posAt(now));
          long actual = switch (mode) {
            case EXACT, LATE -> model;
            case AHEAD -> Math.min(a.end, model + 1 + rng.nextInt(50));
            case BEHIND -> Math.max(a.start, model - 1 - rng.nextInt(50));
          };
          if (actual != model) {
            corrections++;
          }
          pendingAcks.add(s.subjobId());
          if (mode == Ack.LATE && rng.nextInt(4) == 0) { // it had finished: the end comes first
            record(a.job, a.start, a.end);
            push(now + 1 + rng.nextInt(30), SUSPENDED_END, s.subjobId(), a.node, a.end, 0);
            corrections++;
          } else {
            record(a.job, a.start, actual);
            ackIds.add(s.subjobId());
            acks.add(new long[] {actual});
          }
        }
      } else if (c instanceof SplitCommand.Shrink s) {
        {
          shrinks++;
          AgentRun a = agent.get(s.subjobId());
          assertThat(a).as("shrunk subjob runs").isNotNull();
          long cur = a.posAt(now);
          long actual = Math.max(s.newEnd(), cur);
          if (mode == Ack.AHEAD) {
            actual = Math.min(a.end, actual + 1 + rng.nextInt(50));
          }
          if (actual != s.newEnd()) {
            corrections++;
          }
          a.end = actual;
          a.version++;
          double endAt = Math.max(now, a.dispatch + CostSegment.cost(a.segments, a.start, actual));
          push(endAt, END, s.subjobId(), a.node, 0, a.version);
          pendingAcks.add(s.subjobId());
          ackIds.add(s.subjobId());
          acks.add(new long[] {actual});
        }
      }
    }
    for (int i = 0; i < acks.size(); i++) {
      ack(ackIds.get(i), acks.get(i)[0]);
    }
    for (JobOutcome o : policy.drainFinished()) {
      outcomes.add(o);
    }
    double next = policy.nextTimerAt();
    boolean work = policy.activeJobs() > 0
        || arrivals.size() > outcomes.size() + cancelled.size() || !pendingAcks.isEmpty();
    if (work && next < timerAt) {
      timerAt = Math.max(next, now);
      push(timerAt, TIMER, null, null, 0, 0);
    }
    for (String n : policy.nodeIds()) {
      RangeLru c = policy.cache(n);
      if (c.used() > c.capacity()) {
        throw new AssertionError("cache of " + n + " holds " + c.used() + " > " + c.capacity());
      }
    }
    if (checkJournal) {
      assertThat(journal.entries()).as("the journal holds the whole state at %.3f", now)
          .isEqualTo(policy.entries());
    }
  }

  private void ack(String id, long pos) {
    if (mode == Ack.LATE) {
      push(now + 1 + rng.nextInt(30), ACK, id, null, pos, 0);
    } else {
      pendingAcks.remove(id);
      List<SplitCommand> cmds = policy.acknowledgeStop(id, pos, now);
      afterAck(id, cmds);
      execute(cmds);
    }
  }

  private void record(String job, long a, long b) {
    if (a < b) {
      processed.computeIfAbsent(job, k -> new ArrayList<>()).add(new long[] {a, b});
    }
  }

  /**
   * Every event of every submitted job processed exactly once, and every job reported done; of a
   * cancelled job, no event twice, and no report.
   */
  void assertExactlyOnce() {
    assertThat(held).as("no RUN left held").isEmpty();
    assertThat(agent).as("no subjob left running").isEmpty();
    assertThat(outcomes).hasSize(arrivals.size() - cancelled.size());
    for (JobOutcome o : outcomes) {
      assertThat(cancelled).as("a cancelled job never completes").doesNotContain(o.jobId());
    }
    for (SplitJob j : arrivals.values()) {
      List<long[]> rs = new ArrayList<>(processed.getOrDefault(j.id(), List.of()));
      rs.sort((x, y) -> Long.compare(x[0], y[0]));
      long pos = j.events().start();
      for (long[] r : rs) {
        if (cancelled.contains(j.id())) {
          assertThat(r[0]).as("cancelled job %s: [%d,%d) after %d", j.id(), r[0], r[1], pos)
              .isGreaterThanOrEqualTo(pos);
        } else {
          assertThat(r[0]).as("job %s: range [%d,%d) continues at %d", j.id(), r[0], r[1], pos)
              .isEqualTo(pos);
        }
        pos = r[1];
      }
      if (!cancelled.contains(j.id())) {
        assertThat(pos).as("job " + j.id() + " fully processed").isEqualTo(j.events().end());
      }
    }
    for (JobOutcome o : outcomes) {
      assertThat(o.localEvents() + o.remoteEvents() + o.tapeEvents()).isEqualTo(o.eventCount());
    }
  }
}
