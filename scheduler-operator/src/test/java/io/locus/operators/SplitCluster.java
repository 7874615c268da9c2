package io.locus.operators;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * One-slot agents in virtual time for operator tests, answering decisions the way simulated agents
 * do (node-agent README): a placement starts {@code latencyMs} after its decision and processes its
 * events at the segments' costs (1 model second = 1 000 ms); a shrink is acknowledged at once with
 * {@code min(end, max(newEnd, event in progress + 1))}; a suspend reports the position reached; a
 * shrink or suspend of an attempt that already ended is answered SHRUNK at its reported end. Inputs
 * come out in time order ({@link #next()}), decisions go in through {@link #saw}. It records every
 * processed range, concurrency per node and refusals.
 */
final class SplitCluster {
  private final String pool;
  private final String dataset;
  private final long latencyMs;
  private final PriorityQueue<Ev> events = new PriorityQueue<>();
  private long seq;
  long clock;

  private record Ev(long t, long seq, SchedulerInput input, String endOf, int version)
      implements Comparable<Ev> {
    @Override
    public int compareTo(Ev o) {
      return t != o.t ? Long.compare(t, o.t) : Long.compare(seq, o.seq);
    }
  }

  private static final class Run {
    final Decision d;
    final PlaceTask p;
    final long startMs;
    long end;
    int version;

    Run(Decision d, PlaceTask p, long startMs) {
      this.d = d;
      this.p = p;
      this.startMs = startMs;
      this.end = p.getEvents().getEnd();
    }

    double costMs(long from, long to) {
      double sum = 0;
      for (EventSegment s : p.getEventSegments()) {
        long a = Math.max(from, s.getStart());
        long b = Math.min(to, s.getEnd());
        if (b > a) {
          sum += (b - a) * s.getSecondsPerEvent() * 1000;
        }
      }
      return sum;
    }

    long position(long t) {
      long pos = p.getEvents().getStart();
      double left = t - startMs;
      for (EventSegment s : p.getEventSegments()) {
        long a = Math.max(pos, s.getStart());
        long b = Math.min(end, s.getEnd());
        if (b <= a) {
          continue;
        }
        double c = s.getSecondsPerEvent() * 1000;
        if (left >= (b - a) * c) {
          left -= (b - a) * c;
          pos = b;
        } else {
          return a + Math.max(0, (long) Math.floor(left / c));
        }
      }
      return Math.min(pos, end);
    }
  }

  private final Map<String, Run> running = new HashMap<>();
  private final Map<String, Long> ended = new HashMap<>();
  /** Per job: processed [start, end) ranges. */
  final Map<String, List<long[]>> processed = new TreeMap<>();
  final Map<String, EventRange> jobs = new TreeMap<>();
  final List<String> log = new ArrayList<>();
  final List<String> refusals = new ArrayList<>();
  int shrinks;
  int suspends;
  int placements;

  SplitCluster(String pool, String dataset, long latencyMs, long startMs) {
    this.pool = pool;
    this.dataset = dataset;
    this.latencyMs = latencyMs;
    this.clock = startMs;
  }

  SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(pool).setEvent(event).build();
  }

  void register(String node, long t) {
    push(t, in(NodeReport.newBuilder().setPool(pool).setNode(node)
        .setType(NodeReportType.REGISTER).setTimeMs(t).setSlots(1).build()), null, 0);
  }

  void heartbeat(String node, long t) {
    push(t, in(NodeReport.newBuilder().setPool(pool).setNode(node)
        .setType(NodeReportType.HEARTBEAT).setTimeMs(t).build()), null, 0);
  }

  void submit(String id, long start, long end, long t) {
    jobs.put(id, new EventRange(dataset, start, end));
    push(t, in(JobSubmitted.newBuilder().setJobId(id).setPool(pool).setSubmitTimeMs(t)
        .setInputs(List.of()).setSplittable(true).setEvents(new EventRange(dataset, start, end))
        .build()), null, 0);
  }

  private void push(long t, SchedulerInput input, String endOf, int version) {
    events.add(new Ev(t, seq++, input, endOf, version));
  }

  /** The next input in time order (a subjob end becomes its COMPLETED here); null at the end. */
  SchedulerInput next() {
    while (!events.isEmpty()) {
      Ev e = events.poll();
      clock = Math.max(clock, e.t);
      if (e.endOf == null) {
        return e.input;
      }
      Run r = running.get(e.endOf);
      if (r == null || r.version != e.version) {
        continue; // shrunk (re-armed) or suspended meanwhile
      }
      running.remove(e.endOf);
      return finished(r, TaskEventType.COMPLETED, r.end, null);
    }
    return null;
  }

  private SchedulerInput finished(Run r, TaskEventType type, long end, Decision ack) {
    PlaceTask p = r.p;
    long start = p.getEvents().getStart();
    if (end > start) {
      processed.computeIfAbsent(p.getJobId(), k -> new ArrayList<>()).add(new long[] {start, end});
    }
    ended.put(key(p.getTaskId(), p.getAttempt()), end);
    Decision d = ack != null ? ack : r.d;
    TaskEvent.Builder b = TaskEvent.newBuilder().setPool(pool).setTaskId(p.getTaskId())
        .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(r.d.getNode()).setType(type)
        .setDecisionId(d.getDecisionId()).setEpoch(d.getEpoch()).setTimeMs(clock)
        .setStartTimeMs(r.startMs).setEndTimeMs(clock)
        .setEvents(new EventRange(dataset, start, end));
    if (type == TaskEventType.SUSPENDED) {
      b.setStopAt(end);
    }
    return in(b.build());
  }

  private static String key(String task, int attempt) {
    return task + "#" + attempt;
  }

  /** The decisions the operator emitted for the last input; answered as agents would. */
  void saw(List<Decision> decisions) {
    for (Decision d : decisions) {
      Object a = d.getAction();
      if (a instanceof PlaceTask p) {
        placements++;
        log.add(d.getDecisionId() + "@" + d.getNode() + " " + p.getEvents().getStart() + "-"
            + p.getEvents().getEnd() + " " + segments(p) + " " + p.getReason().getLocalBytes());
        Run busy = null;
        for (Run r : running.values()) {
          if (r.d.getNode().equals(d.getNode())) {
            busy = r;
          }
        }
        if (busy != null) {
          refusals.add(p.getTaskId() + " on busy " + d.getNode() + " running " + busy.p.getTaskId());
          push(clock, in(TaskEvent.newBuilder().setPool(pool).setTaskId(p.getTaskId())
              .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(d.getNode())
              .setType(TaskEventType.REFUSED).setDecisionId(d.getDecisionId())
              .setTimeMs(clock).setMessage("no free slot").build()), null, 0);
          continue;
        }
        Run r = new Run(d, p, clock + latencyMs);
        running.put(p.getTaskId(), r);
        push(r.startMs + (long) Math.ceil(r.costMs(p.getEvents().getStart(), r.end)), null,
            p.getTaskId(), r.version);
      } else if (a instanceof ShrinkTask s) {
        shrinks++;
        log.add(d.getDecisionId() + "@" + d.getNode() + " shrink " + s.getTaskId() + "#"
            + s.getAttempt() + " to " + s.getNewEnd());
        Run r = running.get(s.getTaskId());
        long stopAt;
        if (r == null || r.p.getAttempt() != s.getAttempt()) {
          stopAt = ended.get(key(s.getTaskId(), s.getAttempt()));
        } else {
          long pos = r.position(clock);
          long start = r.p.getEvents().getStart();
          stopAt = Math.min(r.end, Math.max(Math.max(s.getNewEnd(), start), pos + 1));
          r.end = stopAt;
          r.version++;
          push(Math.max(clock, r.startMs + (long) Math.ceil(r.costMs(start, stopAt))), null,
              s.getTaskId(), r.version);
        }
        push(clock, ack(d, s.getTaskId(), s.getJobId(), s.getAttempt(), TaskEventType.SHRUNK,
            stopAt), null, 0);
      } else if (a instanceof SuspendTask s) {
        suspends++;
        log.add(d.getDecisionId() + "@" + d.getNode() + " suspend " + s.getTaskId() + "#"
            + s.getAttempt());
        Run r = running.get(s.getTaskId());
        if (r == null || r.p.getAttempt() != s.getAttempt()) {
          push(clock, ack(d, s.getTaskId(), s.getJobId(), s.getAttempt(), TaskEventType.SHRUNK,
              ended.get(key(s.getTaskId(), s.getAttempt()))), null, 0);
        } else {
          running.remove(s.getTaskId());
          push(clock, finished(r, TaskEventType.SUSPENDED, r.position(clock), d), null, 0);
        }
      }
    }
  }

  private SchedulerInput ack(Decision d, String task, String job, int attempt, TaskEventType type,
      long stopAt) {
    return in(TaskEvent.newBuilder().setPool(pool).setTaskId(task).setJobId(job)
        .setAttempt(attempt).setNode(d.getNode()).setType(type).setDecisionId(d.getDecisionId())
        .setEpoch(d.getEpoch()).setTimeMs(clock).setStopAt(stopAt).build());
  }

  private static String segments(PlaceTask p) {
    StringBuilder sb = new StringBuilder();
    for (EventSegment s : p.getEventSegments()) {
      sb.append('[').append(s.getStart()).append(',').append(s.getEnd()).append(' ')
          .append(s.getSource()).append(s.getPeerNode() == null ? "" : ":" + s.getPeerNode())
          .append(' ').append(s.getSecondsPerEvent()).append(']');
    }
    return sb.toString();
  }

  /** Jobs whose ranges are not yet fully processed, or null when each event ran exactly once. */
  String exactlyOnceProblem() {
    for (Map.Entry<String, EventRange> j : jobs.entrySet()) {
      List<long[]> rs = new ArrayList<>(processed.getOrDefault(j.getKey(), List.of()));
      rs.sort((x, y) -> Long.compare(x[0], y[0]));
      long pos = j.getValue().getStart();
      for (long[] r : rs) {
        if (r[0] != pos) {
          return "job " + j.getKey() + ": range [" + r[0] + "," + r[1] + ") does not continue at "
              + pos;
        }
        pos = r[1];
      }
      if (pos != j.getValue().getEnd()) {
        return "job " + j.getKey() + " processed up to " + pos + " of " + j.getValue();
      }
    }
    return null;
  }

  int runningCount() {
    return running.size();
  }
}
