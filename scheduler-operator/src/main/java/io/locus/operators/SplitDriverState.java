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
 * range) and each subjob's last placed attempt. Every change is written through {@link
 * SplitWrites} as one entry (the scalars once per input, when they changed).
 */
final class SplitDriverState {
  /** What a job's placements carry besides the range. */
  record JobInfo(long submitTimeMs, String template, List<String> args) {}

  /** A placed attempt; {@code stop}: the id of the last shrink or suspend sent for it, or null. */
  record RunInfo(String node, int attempt, String stop) {}

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
    return d;
  }
}
