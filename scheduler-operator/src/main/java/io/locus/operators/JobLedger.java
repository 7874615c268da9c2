package io.locus.operators;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;

/**
 * The job ids a pool accepted within the retention window (record clock), so a job id is unique
 * for the window, not only while its job is queued or running: a resubmission after the first run
 * completed is refused too. The one duplicate rule of both pool families ({@link InputGate}).
 *
 * <p>Keyed state: {@code job-ledger} (job id → arrival clock), and for expiry the arrivals grouped
 * in buckets of {@code retention / 128} of record clock: {@code job-ledger-buckets} (the buckets in
 * use; the value is not read) and {@code job-ledger-entries} ({@code bucket SEP index} → job id,
 * indexes 0, 1, 2, ... without gaps). An arrival writes two entries (its id and its bucket entry);
 * the next index of a bucket is kept on the heap and, after a restore, found again by probing the
 * entries (O(log n) reads once per bucket). A workflow's job also writes {@code job-ledger-workflow}
 * (job id → workflow id), so a later arrival of the id can tell a redelivery of the same workflow's
 * release from another workflow (a re-run) that reuses a finished job's id: the pool forgets the
 * job's workflow at its final status ({@link JobWorkflows}), the ledger keeps it for the window. When the clock enters a new bucket, the buckets
 * wholly outside the window are dropped with their ids. No full scan per record: the bucket map
 * has at most ~130 entries and is read once per bucket of clock.
 *
 * <p>Whether an id is a duplicate depends only on its stored arrival time, never on when the
 * expiry ran, so a restore (which forgets {@link #checkedBucket}) changes nothing.
 */
final class JobLedger {
  static final int BUCKETS = 128;

  private final MapState<String, Long> arrivals;
  private final MapState<Long, Integer> buckets;
  private final MapState<String, String> entries;
  private final MapState<String, String> workflows;
  private final long retentionMs;
  private final long bucketMs;
  /** The bucket of clock the expiry last ran in (heap: a restart runs it once more). */
  private long checkedBucket = Long.MIN_VALUE;
  /** Next entry index per bucket (heap; rebuilt by {@link #probe} after a restore). */
  private final Map<Long, Integer> next = new HashMap<>();
  /**
   * Whether {@link #workflows} may hold entries (heap; asked of the state once after a restart),
   * so the expiry of a pool that never ran a workflow job deletes nothing there.
   */
  private Boolean workflowsInUse;

  JobLedger(MapState<String, Long> arrivals, MapState<Long, Integer> buckets,
      MapState<String, String> entries, MapState<String, String> workflows, long retentionMs) {
    this.arrivals = arrivals;
    this.buckets = buckets;
    this.entries = entries;
    this.workflows = workflows;
    this.retentionMs = retentionMs;
    this.bucketMs = Math.max(1, retentionMs / BUCKETS);
  }

  /** When {@code jobId} arrived, if within the window at {@code clockMs}; else null. */
  Long arrivedWithin(String jobId, long clockMs) throws Exception {
    Long at = arrivals.get(jobId);
    return at != null && clockMs - at < retentionMs ? at : null;
  }

  /**
   * The workflow {@code jobId} arrived in, when it arrived within the window as a workflow's job;
   * null for a job outside workflows or an unknown id. (An id recorded before the ledger kept
   * workflows also reads null.)
   */
  String workflowOf(String jobId) throws Exception {
    return mayHaveWorkflows() ? workflows.get(jobId) : null;
  }

  /** Records the arrival of {@code jobId} at {@code clockMs}, in {@code workflow} (or null). */
  void record(String jobId, long clockMs, String workflow) throws Exception {
    if (workflow != null) {
      workflows.put(jobId, workflow);
      workflowsInUse = true;
    } else if (mayHaveWorkflows() && arrivals.contains(jobId)) {
      // the id's earlier arrival, out of the window but not expired yet, was a workflow's
      workflows.remove(jobId);
    }
    long b = clockMs / bucketMs;
    int i = count(b);
    if (i == 0) {
      buckets.put(b, 0); // the bucket is in use: expiry finds it
    }
    entries.put(entryKey(b, i), jobId);
    next.put(b, i + 1);
    arrivals.put(jobId, clockMs);
  }

  /** Entries in bucket {@code b}: from the heap, else probed in state. */
  private int count(long b) throws Exception {
    Integer n = next.get(b);
    if (n == null) {
      n = probe(b);
      next.put(b, n);
    }
    return n;
  }

  /** The first unused index of bucket {@code b}: entries are numbered without gaps. */
  private int probe(long b) throws Exception {
    if (!entries.contains(entryKey(b, 0))) {
      return 0;
    }
    int present = 0;
    int missing = 1;
    while (entries.contains(entryKey(b, missing))) {
      present = missing;
      missing *= 2;
    }
    while (missing - present > 1) {
      int mid = (present + missing) >>> 1;
      if (entries.contains(entryKey(b, mid))) {
        present = mid;
      } else {
        missing = mid;
      }
    }
    return missing;
  }

  /** Drops the ids that arrived too long ago, once per bucket of clock. */
  void expire(long clockMs) throws Exception {
    long now = clockMs / bucketMs;
    if (now == checkedBucket) {
      return;
    }
    checkedBucket = now;
    List<Long> old = new ArrayList<>();
    for (Long b : buckets.keys()) {
      // the bucket's last millisecond is out of the window: every id in it is
      if (clockMs - ((b + 1) * bucketMs - 1) >= retentionMs) {
        old.add(b);
      }
    }
    for (long b : old) {
      int n = count(b);
      for (int i = 0; i < n; i++) {
        String key = entryKey(b, i);
        String job = entries.get(key);
        entries.remove(key);
        Long at = job == null ? null : arrivals.get(job);
        // the id may have arrived again since, in a later bucket: keep that arrival
        if (at != null && at / bucketMs == b) {
          arrivals.remove(job);
          if (mayHaveWorkflows()) {
            workflows.remove(job);
          }
        }
      }
      buckets.remove(b);
      next.remove(b);
    }
  }

  private boolean mayHaveWorkflows() throws Exception {
    if (workflowsInUse == null) {
      workflowsInUse = !workflows.isEmpty();
    }
    return workflowsInUse;
  }

  private static String entryKey(long bucket, int index) {
    return bucket + "" + PoolStore.SEP + index;
  }
}
