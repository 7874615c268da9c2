package io.locus.cli.demo;

import io.locus.schemas.Decision;
import io.locus.schemas.EventSegment;
import io.locus.schemas.FetchSource;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one split pool did with its event-range jobs, from its decisions and task events: the
 * ranges each job's subjob attempts processed, and so whether every event of every job was
 * processed exactly once (the ranges of a job tile its range: no gap, no overlap).
 *
 * <p>A processed range is the {@code events} of a COMPLETED, SUSPENDED or FAILED task event (an
 * attempt's [placed start, first unprocessed event)); SHRUNK only acknowledges a new end and
 * carries no range, so the shrunk attempt's COMPLETED reports what it did. Each processed range is
 * split by the segments of its placement (LOCAL, PEER, STORAGE) to count cache hits in events.
 * Thread-safe: a consumer thread feeds it while a run reads it.
 */
public final class EventRangeLedger {
  /** A processed range of one attempt, with the time it was reported. */
  public record Piece(String jobId, String taskId, int attempt, long start, long end,
      TaskEventType type, long endTimeMs) {
    public long length() {
      return end - start;
    }

    String placementKey() {
      return taskId + "#" + attempt;
    }
  }

  /** Counts so far: decisions sent and processed events by the source their placement planned. */
  public record Counts(long placements, long shrinks, long suspends, long processedEvents,
      long localEvents, long peerEvents, long storageEvents, long unplacedEvents) {
    /** Share of processed events read from the node's own cache (0 when nothing is known). */
    public double hitRatio() {
      long known = localEvents + peerEvents + storageEvents;
      return known == 0 ? 0 : (double) localEvents / known;
    }
  }

  /**
   * The exactly-once check of a set of jobs.
   *
   * @param completedJobs jobs whose processed ranges cover their whole range
   * @param expectedEvents sum of the jobs' range lengths
   * @param processedEvents sum of the lengths of the processed ranges (an event processed twice
   *     counts twice)
   * @param problems gaps, overlaps and ranges outside a job, first ones only (empty: exactly once)
   * @param problemCount how many problems in all
   * @param meanResponseSeconds completed jobs: last range reported − submit time, mean
   */
  public record Check(int jobs, int completedJobs, long expectedEvents, long processedEvents,
      List<String> problems, int problemCount, Map<String, Integer> placementsPerJob,
      double meanResponseSeconds) {
    /** Every job completed and every event of every job was processed exactly once. */
    public boolean exactlyOnce() {
      return problemCount == 0 && completedJobs == jobs && processedEvents == expectedEvents;
    }
  }

  private static final int MAX_PROBLEMS = 10;

  private final Map<String, List<EventSegment>> segments = new HashMap<>();
  private final Map<String, Integer> placementsPerJob = new HashMap<>();
  private final Map<String, List<Piece>> pieces = new TreeMap<>();
  private long placements;
  private long shrinks;
  private long suspends;

  /** Whether the event ends an attempt with a processed range the ledger counts. */
  public static boolean endsARange(TaskEvent e) {
    TaskEventType t = e.getType();
    return (t == TaskEventType.COMPLETED || t == TaskEventType.SUSPENDED
        || t == TaskEventType.FAILED)
        && e.getEvents() != null && e.getEvents().getEnd() > e.getEvents().getStart();
  }

  /** Takes a decision of the pool; only event-range placements, shrinks and suspends count. */
  public synchronized void decision(Decision d) {
    if (d.getAction() instanceof PlaceTask p && p.getEvents() != null) {
      placements++;
      placementsPerJob.merge(p.getJobId(), 1, Integer::sum);
      segments.put(p.getTaskId() + "#" + p.getAttempt(), new ArrayList<>(p.getEventSegments()));
    } else if (d.getAction() instanceof ShrinkTask) {
      shrinks++;
    } else if (d.getAction() instanceof SuspendTask) {
      suspends++;
    }
  }

  /** Takes a task event of the pool; only those ending an attempt with a range count. */
  public synchronized void taskEvent(TaskEvent e) {
    if (endsARange(e)) {
      pieces.computeIfAbsent(e.getJobId(), k -> new ArrayList<>()).add(new Piece(e.getJobId(),
          e.getTaskId(), e.getAttempt(), e.getEvents().getStart(), e.getEvents().getEnd(),
          e.getType(), e.getEndTimeMs()));
    }
  }

  /** Processed ranges per job, in the order they were reported. */
  public synchronized Map<String, List<Piece>> processed() {
    Map<String, List<Piece>> out = new TreeMap<>();
    pieces.forEach((job, ps) -> out.put(job, new ArrayList<>(ps)));
    return out;
  }

  /** Events processed of the given jobs (an event processed twice counts twice). */
  public synchronized long processedEvents(List<JobSubmitted> jobs) {
    long n = 0;
    for (JobSubmitted j : jobs) {
      for (Piece p : pieces.getOrDefault(j.getJobId(), List.of())) {
        n += p.length();
      }
    }
    return n;
  }

  public synchronized Counts counts() {
    long processed = 0;
    long local = 0;
    long peer = 0;
    long storage = 0;
    long unplaced = 0;
    for (List<Piece> ps : pieces.values()) {
      for (Piece p : ps) {
        processed += p.length();
        List<EventSegment> segs = segments.get(p.placementKey());
        if (segs == null) {
          // its placement is on another topic, not read yet
          unplaced += p.length();
          continue;
        }
        long counted = 0;
        for (EventSegment s : segs) {
          long n = Math.max(0, Math.min(p.end(), s.getEnd()) - Math.max(p.start(), s.getStart()));
          counted += n;
          if (s.getSource() == FetchSource.LOCAL) {
            local += n;
          } else if (s.getSource() == FetchSource.PEER) {
            peer += n;
          } else {
            storage += n;
          }
        }
        // a placement without segments: the agent spread its cost evenly; source unknown
        unplaced += p.length() - counted;
      }
    }
    return new Counts(placements, shrinks, suspends, processed, local, peer, storage, unplaced);
  }

  /** Checks that the processed ranges of each job tile its range exactly, and nothing else. */
  public synchronized Check check(List<JobSubmitted> jobs) {
    List<String> problems = new ArrayList<>();
    int[] count = {0};
    java.util.function.Consumer<String> problem = s -> {
      if (count[0]++ < MAX_PROBLEMS) {
        problems.add(s);
      }
    };
    Map<String, JobSubmitted> byId = new HashMap<>();
    long expected = 0;
    long processed = 0;
    int completed = 0;
    double responseSum = 0;
    int responses = 0;
    for (JobSubmitted j : jobs) {
      byId.put(j.getJobId(), j);
      long start = j.getEvents().getStart();
      long end = j.getEvents().getEnd();
      expected += end - start;
      List<Piece> ps = new ArrayList<>(pieces.getOrDefault(j.getJobId(), List.of()));
      ps.sort(Comparator.comparingLong(Piece::start).thenComparingLong(Piece::end));
      long pos = start;
      boolean gap = false;
      long last = 0;
      for (Piece p : ps) {
        processed += p.length();
        last = Math.max(last, p.endTimeMs());
        if (p.start() < start || p.end() > end) {
          problem.accept(String.format("job %s: %s#%d processed [%d,%d), outside the job's "
              + "[%d,%d)", j.getJobId(), p.taskId(), p.attempt(), p.start(), p.end(), start, end));
        }
        if (p.start() > pos) {
          gap = true;
          problem.accept(String.format("job %s: events [%d,%d) not processed", j.getJobId(), pos,
              p.start()));
        } else if (p.start() < pos) {
          problem.accept(String.format("job %s: events [%d,%d) processed more than once (again "
              + "by %s#%d)", j.getJobId(), p.start(), Math.min(pos, p.end()), p.taskId(),
              p.attempt()));
        }
        pos = Math.max(pos, p.end());
      }
      if (pos < end) {
        gap = true;
        problem.accept(String.format("job %s: events [%d,%d) not processed", j.getJobId(), pos,
            end));
      }
      if (!gap) {
        completed++;
        if (j.getSubmitTimeMs() > 0 && last > 0) {
          responseSum += (last - j.getSubmitTimeMs()) / 1000.0;
          responses++;
        }
      }
    }
    for (String job : pieces.keySet()) {
      if (!byId.containsKey(job)) {
        problem.accept("job " + job + ": processed events but was not submitted");
      }
    }
    Map<String, Integer> perJob = new TreeMap<>();
    for (JobSubmitted j : jobs) {
      perJob.put(j.getJobId(), placementsPerJob.getOrDefault(j.getJobId(), 0));
    }
    return new Check(jobs.size(), completed, expected, processed, problems, count[0], perJob,
        responses == 0 ? 0 : responseSum / responses);
  }

  /** Jobs whose processed ranges cover their whole range (cheap enough to poll). */
  public synchronized int completedJobs(List<JobSubmitted> jobs) {
    int n = 0;
    for (JobSubmitted j : jobs) {
      List<Piece> ps = new ArrayList<>(pieces.getOrDefault(j.getJobId(), List.of()));
      ps.sort(Comparator.comparingLong(Piece::start));
      long pos = j.getEvents().getStart();
      for (Piece p : ps) {
        if (p.start() > pos) {
          break;
        }
        pos = Math.max(pos, p.end());
      }
      if (pos >= j.getEvents().getEnd()) {
        n++;
      }
    }
    return n;
  }
}
