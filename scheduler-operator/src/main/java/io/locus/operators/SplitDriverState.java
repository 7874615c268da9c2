package io.locus.operators;

import io.locus.schemas.state.split.SplitDriverScalars;
import io.locus.schemas.state.split.SplitJobInfo;
import io.locus.schemas.state.split.SplitRunInfo;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a {@link SplitPoolDriver} knows besides its core: the pool's dataset, the origin of the
 * core's clock, counters, each unfinished job's info (what its placements carry besides the
 * range), each subjob's last placed attempt, and the replayed task events kept until their subjob
 * is placed ({@link Report}). Every change is written through {@link
 * SplitWrites} as one entry (the scalars once per input, when they changed).
 */
final class SplitDriverState {
  /** What a job's placements carry besides the range. */
  record JobInfo(long submitTimeMs, String template, List<String> args) {}

  /** A placed attempt; {@code stop}: the id of the last shrink or suspend sent for it, or null. */
  record RunInfo(String node, int attempt, String stop) {}

  /** Which reconciliation rule kept a {@link Report} (see {@link SplitPoolDriver}). */
  enum Rule {
    /** COMPLETED of a subjob the core does not know yet: counts only on the same node. */
    EARLY,
    /** STARTED or COMPLETED of the attempt the queued subjob is placed at next. */
    QUEUED,
    /** COMPLETED of an attempt superseded by a lost or re-registered node: counts. */
    SPARED
  }

  /**
   * A task event kept until its subjob is next placed ({@link SplitPoolDriver}'s reconciliation
   * of replays). {@code start}/{@code upTo}: the reported event range, -1 when it had none;
   * {@code clockMs}: the pool clock when it was kept (it is dropped a retention later).
   */
  record Report(Rule rule, boolean completed, int attempt, String node, long start, long upTo,
      long clockMs) {
    private static final String SEP = String.valueOf(PoolStore.SEP);

    String encode() {
      return String.join(SEP, rule.name(), completed ? "C" : "S", Integer.toString(attempt), node,
          Long.toString(start), Long.toString(upTo), Long.toString(clockMs));
    }

    /** The report an entry holds, or null when it is not one (so it is dropped). */
    static Report decode(String v) {
      String[] p = v.split(SEP, -1);
      if (p.length != 7) {
        return null;
      }
      try {
        return new Report(Rule.valueOf(p[0]), p[1].equals("C"), Integer.parseInt(p[2]), p[3],
            Long.parseLong(p[4]), Long.parseLong(p[5]), Long.parseLong(p[6]));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
  }

  private static final JobInfo UNKNOWN = new JobInfo(0, null, List.of());

  String dataset;
  long originMs = -1;
  long shrinks;
  long suspends;
  long acknowledgements;
  long staleEvents;
  long jobsFinished;
  /** Unfinished jobs, by arrival. */
  private final LinkedHashMap<String, JobInfo> jobs = new LinkedHashMap<>();
  /** The last placed attempt of each subjob the core still knows. */
  private final TreeMap<String, RunInfo> runs = new TreeMap<>();
  /** Replayed task events kept until their subjob is placed, by subjob. */
  private final TreeMap<String, Report> reports = new TreeMap<>();
  /** Record clock at which expired reports are next dropped (heap only: 0 after a restore). */
  private long nextPurgeMs;
  private SplitWrites writes;
  /** The scalars as last written. */
  private SplitDriverScalars written;

  SplitDriverState(String dataset) {
    this.dataset = dataset;
  }

  /** From now on, changes go to {@code w}. */
  void writeTo(SplitWrites w) {
    this.writes = w;
  }

  boolean hasJob(String jobId) {
    return jobs.containsKey(jobId);
  }

  /** The job's info; empty for a job the driver does not know. */
  JobInfo job(String jobId) {
    return jobs.getOrDefault(jobId, UNKNOWN);
  }

  void putJob(String jobId, JobInfo j) {
    jobs.put(jobId, j);
    writes.jobInfo(jobId, new SplitJobInfo(j.submitTimeMs(), j.template(), j.args()));
  }

  void jobFinished(String jobId) {
    jobs.remove(jobId);
    writes.jobInfo(jobId, null);
    jobsFinished++;
  }

  /** The job was cancelled: its info goes (no placement of it follows); not counted finished. */
  void jobCancelled(String jobId) {
    jobs.remove(jobId);
    writes.jobInfo(jobId, null);
  }

  RunInfo run(String subjobId) {
    return runs.get(subjobId);
  }

  void putRun(String subjobId, RunInfo r) {
    runs.put(subjobId, r);
    writes.run(subjobId, new SplitRunInfo(r.node(), r.attempt(), r.stop()));
  }

  /** Forgets the runs of subjobs that are {@code gone} from the core. */
  void forgetRuns(Predicate<String> gone) {
    for (Iterator<String> it = runs.keySet().iterator(); it.hasNext(); ) {
      String id = it.next();
      if (gone.test(id)) {
        it.remove();
        writes.run(id, null);
      }
    }
  }

  Report report(String subjobId) {
    return reports.get(subjobId);
  }

  void putReport(String subjobId, Report r) {
    reports.put(subjobId, r);
    writes.report(subjobId, r.encode());
  }

  /** The report kept for the subjob, removed; null when none is (or it expired). */
  Report takeReport(String subjobId, long clockMs) {
    Report r = reports.remove(subjobId);
    if (r == null) {
      return null;
    }
    writes.report(subjobId, null);
    return r.clockMs() < clockMs - EarlyCompletions.RETENTION_MS ? null : r;
  }

  /**
   * Drops reports older than the retention, at most once per sixteenth of it (a flood of
   * replayed or forged events is bounded by the window, as {@link EarlyCompletions}). Whether a
   * purge ran changes no decision: {@link #takeReport} ignores an expired report.
   */
  void purgeReports(long clockMs) {
    if (clockMs < nextPurgeMs) {
      return;
    }
    nextPurgeMs = clockMs + EarlyCompletions.RETENTION_MS / 16;
    for (Iterator<Map.Entry<String, Report>> it = reports.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Report> e = it.next();
      if (e.getValue().clockMs() < clockMs - EarlyCompletions.RETENTION_MS) {
        it.remove();
        writes.report(e.getKey(), null);
      }
    }
  }

  /** The scalars, if they changed since they were last written. */
  void writeScalars() {
    SplitDriverScalars s = new SplitDriverScalars(dataset, originMs, shrinks, suspends,
        acknowledgements, staleEvents, jobsFinished);
    if (!s.equals(written)) {
      writes.driver(s);
      written = s;
    }
  }

  /** Every entry, as puts (a store cleared for a fresh save). */
  void writeAll() {
    jobs.forEach(this::putJob);
    runs.forEach(this::putRun);
    reports.forEach(this::putReport);
    written = null;
    writeScalars();
  }

  /** The state {@code store} holds, or null when it holds none. */
  static SplitDriverState load(SplitStore store) throws Exception {
    List<Map.Entry<String, SplitDriverScalars>> scalars = store.driver.entries();
    if (scalars.isEmpty()) {
      return null;
    }
    SplitDriverScalars s = scalars.get(0).getValue();
    SplitDriverState d = new SplitDriverState(s.getDataset());
    d.originMs = s.getOriginMs();
    d.shrinks = s.getShrinks();
    d.suspends = s.getSuspends();
    d.acknowledgements = s.getAcknowledgements();
    d.staleEvents = s.getStaleEvents();
    d.jobsFinished = s.getJobsFinished();
    d.written = s;
    List<Map.Entry<String, SplitJobInfo>> infos = store.jobInfo.entries();
    infos.sort(Map.Entry.comparingByKey()); // the order placements do not depend on
    for (Map.Entry<String, SplitJobInfo> e : infos) {
      SplitJobInfo j = e.getValue();
      d.jobs.put(e.getKey(), new JobInfo(j.getSubmitTimeMs(), j.getTemplate(),
          new ArrayList<>(j.getArgs())));
    }
    for (Map.Entry<String, SplitRunInfo> e : store.runs.entries()) {
      SplitRunInfo r = e.getValue();
      d.runs.put(e.getKey(), new RunInfo(r.getNode(), r.getAttempt(), r.getStop()));
    }
    for (Map.Entry<String, String> e : store.reports.entries()) {
      Report r = Report.decode(e.getValue());
      if (r != null) {
        d.reports.put(e.getKey(), r);
      }
    }
    return d;
  }
}
