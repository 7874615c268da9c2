package io.locus.operators;

import io.locus.schemas.state.split.SplitCachedRange;
import io.locus.schemas.state.split.SplitDriverScalars;
import io.locus.schemas.state.split.SplitJobEntry;
import io.locus.schemas.state.split.SplitJobInfo;
import io.locus.schemas.state.split.SplitPolicyEntry;
import io.locus.schemas.state.split.SplitPoolScalars;
import io.locus.schemas.state.split.SplitRunInfo;
import io.locus.schemas.state.split.SplitSubjobEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;

/**
 * A split pool's keyed state, one entry per thing ({@link SplitPoolDriver} writes only what an
 * input changed): the driver's scalars, its unfinished jobs' info and placed runs, and the split
 * core's state in parts (pool scalars, nodes, cached ranges, jobs, subjobs, policy memory; see
 * {@code io.locus.core.split.SplitJournal}); and the ids of finished jobs with the pool clock at
 * their end (a resubmitted finished job is rejected). Every value is an Avro record of {@code
 * schemas/.../state/split} or a Flink basic type. {@link #open} is the Flink one; {@link
 * #inMemory} serves drivers run without Flink (tests, benchmarks).
 */
final class SplitStore {
  /** One keyed map of the store. */
  interface Table<V> {
    void put(String key, V value) throws Exception;

    void remove(String key) throws Exception;

    boolean contains(String key) throws Exception;

    /** The value under the key, or null. */
    V get(String key) throws Exception;

    /** Every entry (a copy, in no particular order). */
    List<Map.Entry<String, V>> entries() throws Exception;

    void clear() throws Exception;
  }

  /** Makes the tables: Flink map states, or maps in memory. */
  interface Tables {
    <V> Table<V> table(String name, TypeInformation<V> type);
  }

  /** The driver's scalars ({@code split-driver}, one entry): present once the pool is saved. */
  final Table<SplitDriverScalars> driver;
  /** Unfinished job → what its placements carry ({@code split-job-info}). */
  final Table<SplitJobInfo> jobInfo;
  /** Subjob → its last placed attempt ({@code split-runs}). */
  final Table<SplitRunInfo> runs;
  /** The core's pool scalars ({@code split-core-pool}, one entry). */
  final Table<SplitPoolScalars> pool;
  /** The core's nodes ({@code split-core-nodes}). */
  final Table<Boolean> nodes;
  /** (node, first event) → a cached range ({@code split-core-cache}; {@link #rangeKey}). */
  final Table<SplitCachedRange> cache;
  /** Unfinished job → the core's job ({@code split-core-jobs}). */
  final Table<SplitJobEntry> jobs;
  /** Subjob → the core's subjob ({@code split-core-subjobs}). */
  final Table<SplitSubjobEntry> subjobs;
  /** Key → an entry of the policy's own memory ({@code split-core-memory}). */
  final Table<SplitPolicyEntry> memory;
  /** Finished job → pool clock (ms) at its end ({@code split-finished-jobs}). */
  final Table<Long> finished;
  /**
   * Subjob → a task event replayed after a restore (or read after its node re-registered) that
   * is judged when the subjob is next placed ({@code split-replay-reports}; {@link
   * SplitDriverState.Report}, as a string).
   */
  final Table<String> reports;

  // Tables of the file family live here too: this is the pool's open-ended set of keyed
  // tables (PoolStore, which keeps the file family's, is outside the drivers' files). None
  // is cleared with the split state.
  /**
   * File pools: task → its attempts not caused by its own failures ({@code task-spared-attempts};
   * {@code PoolState#sparedAttempts}).
   */
  final Table<Integer> spared;
  /**
   * Both families' reconciliation: task → a COMPLETED that came before the task's arrival (after
   * a restore, replayed out of order), kept for a retention window of record clock ({@code
   * early-completions}; {@link EarlyCompletions}).
   */
  final Table<String> early;
  /**
   * File pools: task → the placed attempt of a cancelled task, until its node answers ({@code
   * task-cancelling}; {@code PoolState#isCancelling}).
   */
  final Table<Integer> cancelling;
  /**
   * File pools: task → its placed attempt being preempted, until its node answers ({@code
   * task-preempting}; {@code PoolState#isPreempting}; issue 24).
   */
  final Table<Integer> preempting;
  /**
   * File pools with queues: leaf queue → its cumulative preempted count ({@code queue-preempted};
   * {@code QueueLedger#preempted}; the only part of the queue book that is history).
   */
  final Table<Long> queuePreempted;

  /** The key of the single entry of {@link #driver} and {@link #pool}. */
  static final String SCALARS = "";

  SplitStore(Tables t) {
    driver = t.table("split-driver", avro(SplitDriverScalars.class));
    jobInfo = t.table("split-job-info", avro(SplitJobInfo.class));
    runs = t.table("split-runs", avro(SplitRunInfo.class));
    pool = t.table("split-core-pool", avro(SplitPoolScalars.class));
    nodes = t.table("split-core-nodes", Types.BOOLEAN);
    cache = t.table("split-core-cache", avro(SplitCachedRange.class));
    jobs = t.table("split-core-jobs", avro(SplitJobEntry.class));
    subjobs = t.table("split-core-subjobs", avro(SplitSubjobEntry.class));
    memory = t.table("split-core-memory", avro(SplitPolicyEntry.class));
    finished = t.table("split-finished-jobs", Types.LONG);
    reports = t.table("split-replay-reports", Types.STRING);
    spared = t.table("task-spared-attempts", Types.INT);
    early = t.table("early-completions", Types.STRING);
    cancelling = t.table("task-cancelling", Types.INT);
    preempting = t.table("task-preempting", Types.INT);
    queuePreempted = t.table("queue-preempted", Types.LONG);
  }

  private static <V extends org.apache.avro.specific.SpecificRecordBase> TypeInformation<V> avro(
      Class<V> c) {
    return new AvroTypeInfo<>(c);
  }

  /** (node, first event) → {@code node SEP start}. */
  static String rangeKey(String node, long start) {
    return PoolStore.pairKey(node, Long.toString(start));
  }

  static String rangeNode(String key) {
    return PoolStore.first(key);
  }

  static long rangeStart(String key) {
    return Long.parseLong(PoolStore.second(key));
  }

  /** Whether the pool's split state is stored (it was saved once and not cleared since). */
  boolean stored() throws Exception {
    return driver.contains(SCALARS);
  }

  /** Whether a job with that id finished in this pool. */
  boolean finished(String jobId) throws Exception {
    return finished.contains(jobId);
  }

  void markFinished(String jobId, long clockMs) throws Exception {
    finished.put(jobId, clockMs);
  }

  /** The pool's split state goes (finished ids stay, for duplicates). */
  void clear() throws Exception {
    for (Table<?> t : List.of(driver, jobInfo, runs, pool, nodes, cache, jobs, subjobs, memory,
        reports)) {
      t.clear();
    }
  }

  /** Tables on the operator's keyed state (the current key is the pool). */
  static SplitStore open(RuntimeContext ctx) {
    return new SplitStore(new Tables() {
      @Override
      public <V> Table<V> table(String name, TypeInformation<V> type) {
        return flink(ctx.getMapState(new MapStateDescriptor<>(name, Types.STRING, type)));
      }
    });
  }

  private static <V> Table<V> flink(MapState<String, V> m) {
    return new Table<>() {
      @Override
      public void put(String key, V value) throws Exception {
        m.put(key, value);
      }

      @Override
      public void remove(String key) throws Exception {
        m.remove(key);
      }

      @Override
      public boolean contains(String key) throws Exception {
        return m.contains(key);
      }

      @Override
      public V get(String key) throws Exception {
        return m.get(key);
      }

      @Override
      public List<Map.Entry<String, V>> entries() throws Exception {
        List<Map.Entry<String, V>> l = new ArrayList<>();
        for (Map.Entry<String, V> e : m.entries()) {
          l.add(Map.entry(e.getKey(), e.getValue()));
        }
        return l;
      }

      @Override
      public void clear() {
        m.clear();
      }
    };
  }

  /** Tables in memory, for one pool. */
  static SplitStore inMemory() {
    return new SplitStore(new Tables() {
      @Override
      public <V> Table<V> table(String name, TypeInformation<V> type) {
        return inMemoryTable();
      }
    });
  }

  static <V> Table<V> inMemoryTable() {
    TreeMap<String, V> m = new TreeMap<>();
    return new Table<>() {
      @Override
      public void put(String key, V value) {
        m.put(key, value);
      }

      @Override
      public void remove(String key) {
        m.remove(key);
      }

      @Override
      public boolean contains(String key) {
        return m.containsKey(key);
      }

      @Override
      public V get(String key) {
        return m.get(key);
      }

      @Override
      public List<Map.Entry<String, V>> entries() {
        return new ArrayList<>(m.entrySet());
      }

      @Override
      public void clear() {
        m.clear();
      }
    };
  }
}
