package io.locus.operators;

import io.locus.core.split.CachedRange;
import io.locus.core.split.JobEntry;
import io.locus.core.split.PolicyEntry;
import io.locus.core.split.PoolScalars;
import io.locus.core.split.SplitJournal;
import io.locus.core.split.SubjobEntry;
import io.locus.schemas.state.split.SplitCachedRange;
import io.locus.schemas.state.split.SplitDriverScalars;
import io.locus.schemas.state.split.SplitJobInfo;
import io.locus.schemas.state.split.SplitJobEntry;
import io.locus.schemas.state.split.SplitPolicyEntry;
import io.locus.schemas.state.split.SplitPoolScalars;
import io.locus.schemas.state.split.SplitRunInfo;
import io.locus.schemas.state.split.SplitSubjobEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The state writes of one split-pool input, held until the input succeeded: the core's entries
 * (it is the core's {@link SplitJournal}) and the driver's own, as Avro records by key, the last
 * write of a key winning. {@link #flush} writes them to the {@link SplitStore}; {@link #discard}
 * drops them (the input threw: the driver is rebuilt from the store, so nothing is half-written).
 */
final class SplitWrites implements SplitJournal {
  /** The pending writes of one table; a null value is a removal. */
  private static final class Pending<V> {
    final SplitStore.Table<V> table;
    final LinkedHashMap<String, V> writes = new LinkedHashMap<>();

    Pending(SplitStore.Table<V> table) {
      this.table = table;
    }

    void flush() throws Exception {
      for (Map.Entry<String, V> e : writes.entrySet()) {
        if (e.getValue() == null) {
          table.remove(e.getKey());
        } else {
          table.put(e.getKey(), e.getValue());
        }
      }
      writes.clear();
    }
  }

  private final List<Pending<?>> all = new ArrayList<>();
  private final Pending<SplitDriverScalars> driver;
  private final Pending<SplitJobInfo> jobInfo;
  private final Pending<SplitRunInfo> runs;
  private final Pending<SplitPoolScalars> pool;
  private final Pending<Boolean> nodes;
  private final Pending<SplitCachedRange> cache;
  private final Pending<SplitJobEntry> jobs;
  private final Pending<SplitSubjobEntry> subjobs;
  private final Pending<SplitPolicyEntry> memory;
  private final Pending<String> reports;

  SplitWrites(SplitStore store) {
    driver = add(new Pending<>(store.driver));
    jobInfo = add(new Pending<>(store.jobInfo));
    runs = add(new Pending<>(store.runs));
    pool = add(new Pending<>(store.pool));
    nodes = add(new Pending<>(store.nodes));
    cache = add(new Pending<>(store.cache));
    jobs = add(new Pending<>(store.jobs));
    subjobs = add(new Pending<>(store.subjobs));
    memory = add(new Pending<>(store.memory));
    reports = add(new Pending<>(store.reports));
  }

  private <V> Pending<V> add(Pending<V> p) {
    all.add(p);
    return p;
  }

  void flush() throws Exception {
    for (Pending<?> p : all) {
      p.flush();
    }
  }

  void discard() {
    for (Pending<?> p : all) {
      p.writes.clear();
    }
  }

  // ------------------------------------------------------------------ the driver's entries

  void driver(SplitDriverScalars s) {
    driver.writes.put(SplitStore.SCALARS, s);
  }

  /** A job's info; null when the job is gone. */
  void jobInfo(String jobId, SplitJobInfo info) {
    jobInfo.writes.put(jobId, info);
  }

  /** A subjob's placed attempt; null when the core forgot the subjob. */
  void run(String subjobId, SplitRunInfo run) {
    runs.writes.put(subjobId, run);
  }

  /** A subjob's replayed report (encoded); null when it is gone. */
  void report(String subjobId, String report) {
    reports.writes.put(subjobId, report);
  }

  // ------------------------------------------------------------------ the core's entries

  @Override
  public void putPool(PoolScalars p) {
    pool.writes.put(SplitStore.SCALARS, SplitEntryCodec.toAvro(p));
  }

  @Override
  public void putNode(String node) {
    nodes.writes.put(node, true);
  }

  @Override
  public void removeNode(String node) {
    nodes.writes.put(node, null);
  }

  @Override
  public void putCachedRange(CachedRange r) {
    cache.writes.put(SplitStore.rangeKey(r.node(), r.start()), SplitEntryCodec.toAvro(r));
  }

  @Override
  public void removeCachedRange(String node, long start) {
    cache.writes.put(SplitStore.rangeKey(node, start), null);
  }

  @Override
  public void putJob(JobEntry j) {
    jobs.writes.put(j.id(), SplitEntryCodec.toAvro(j));
  }

  @Override
  public void removeJob(String jobId) {
    jobs.writes.put(jobId, null);
  }

  @Override
  public void putSubjob(SubjobEntry x) {
    subjobs.writes.put(x.id(), SplitEntryCodec.toAvro(x));
  }

  @Override
  public void removeSubjob(String subjobId) {
    subjobs.writes.put(subjobId, null);
  }

  @Override
  public void putMemory(PolicyEntry e) {
    memory.writes.put(e.key(), SplitEntryCodec.toAvro(e));
  }

  @Override
  public void removeMemory(String key) {
    memory.writes.put(key, null);
  }
}
