package io.locus.operators;

import io.locus.core.policy.PolicyDescriptor;
import io.locus.core.policy.PolicyRegistry;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagingState;
import io.locus.core.state.StateJournal;
import io.locus.schemas.state.FileStat;
import io.locus.schemas.state.NodeStage;
import io.locus.schemas.state.NodeState;
import io.locus.schemas.state.PoolMeta;
import io.locus.schemas.state.StagedEntry;
import io.locus.schemas.state.TaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.RuntimeContext;
import io.locus.schemas.QueueConfig;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;

/**
 * Every piece of keyed state of {@link SchedulerOperator}, keyed by pool: the descriptors (names
 * and serializers: Avro records or Flink's basic types, never Kryo), both directions of the key
 * encoding of composite map keys, and the rebuild of a pool's heap state from them.
 *
 * <p>The layout, one entry per changed thing so a decision writes in proportion to the task's
 * inputs, not to the pool:
 * <ul>
 *   <li>{@code pool-meta}: the pool's scalars (policy and parameters, epoch, clock, sequences,
 *       counters); {@code policy-memory}: a stateful file policy's memory.</li>
 *   <li>File family: {@code nodes} (node → registration), {@code tasks} (task → queued or running
 *       attempt), {@code cache-index} ((node, file) → bytes); the Khanna family's scheduler-managed
 *       caches and plans: {@code staged-files}, {@code file-stats}, {@code gantt}, {@code
 *       task-mapping}, {@code node-stages}, {@code ref-counts}, {@code staged-charges} ((node, file) →
 *       the queue charged with a staged file, with a queue tree); {@code task-backoff} (task →
 *       release time, seconds of record clock, of a queued attempt waiting out its retry
 *       backoff: restored as parked, not queued). Written through by {@link
 *       FlinkStateJournal}. Split pools keep their registrations in {@code nodes} too, so a pool
 *       keeps its nodes when it changes family.</li>
 *   <li>Split family: {@link SplitStore}.</li>
 *   <li>The input gate ({@link InputGate}), any family: {@code node-registry} (node → owner
 *       instance and last heard, {@link NodeRegistry}); {@code job-ledger}, {@code
 *       job-ledger-buckets}, {@code job-ledger-entries} (job ids within the retention window),
 *       {@code job-ledger-workflow} (a workflow job's id → its workflow, for the same window;
 *       {@link JobLedger}).</li>
 *   <li>Job status, any family: {@code job-workflow} (a workflow job's id → its workflow, until
 *       its final status; {@link JobWorkflows}).</li>
 *   <li>Queues, any family ({@link PoolQueues}): {@code queue-tree} (the pool's queue
 *       configurations as last applied), {@code job-queue} (an unfinished job's id → the queue it
 *       names), {@code queue-jobs} (queue → its unfinished jobs).</li>
 * </ul>
 */
final class PoolStore {
  /** Separates the parts of a composite key: a character no id contains (ids are validated). */
  static final char SEP = '\u0000';

  /**
   * Policies that keep scheduler-managed caches and Gantt charts ({@link StagingState}) from the
   * start, from the registry. EFT is not among them: it keeps a staging state only while its
   * caches are staged ({@link PolicyDescriptor.Staging#WHEN_STAGED}), and creating one on restore
   * for a pool that never had one would make the restored pool differ from the original; its
   * staging state is restored when any of it was written (see {@link #load}).
   */
  static final Set<String> STAGING_POLICIES = Set.copyOf(PolicyRegistry.fileNames(
      d -> d.staging() == PolicyDescriptor.Staging.ALWAYS));

  final MapState<String, NodeState> nodes;
  /** Each pool's journal, to flush at the end of an input under that pool's key. */
  private final Map<String, FlinkStateJournal> journals = new java.util.HashMap<>();
  final MapState<String, TaskState> tasks;
  final MapState<String, Long> cache;
  /** Task id → release time (record clock, s) of a next attempt waiting out its backoff. */
  final MapState<String, Double> backoff;
  private final ValueState<PoolMeta> meta;
  private final ValueState<String> policyMemory;
  final MapState<String, StagedEntry> staged;
  /** (node, file) → the leaf queue charged with a staged file; a plain string, no schema. */
  final MapState<String, String> charges;
  final MapState<String, FileStat> fileStats;
  final MapState<String, Double> gantt;
  final MapState<String, String> mapping;
  final MapState<String, NodeStage> stages;
  final MapState<String, Integer> refs;
  final SplitStore split;
  final MapState<String, String> registry;
  final MapState<String, Long> jobArrivals;
  final MapState<Long, Integer> jobBuckets;
  final MapState<String, String> jobEntries;
  /** Job id → workflow id of a workflow's job within the retention window ({@link JobLedger}). */
  final MapState<String, String> jobLedgerWorkflows;
  /** Job id → workflow id of a workflow's unfinished jobs ({@link JobWorkflows}). */
  final MapState<String, String> jobWorkflows;
  private final ListState<QueueConfig> queueTree;
  private final MapState<String, String> jobQueues;
  private final MapState<String, Integer> queueJobs;

  PoolStore(RuntimeContext ctx) {
    nodes = ctx.getMapState(new MapStateDescriptor<>(
        "nodes", Types.STRING, new AvroTypeInfo<>(NodeState.class)));
    tasks = ctx.getMapState(new MapStateDescriptor<>(
        "tasks", Types.STRING, new AvroTypeInfo<>(TaskState.class)));
    cache = ctx.getMapState(new MapStateDescriptor<>("cache-index", Types.STRING, Types.LONG));
    backoff = ctx.getMapState(new MapStateDescriptor<>("task-backoff", Types.STRING,
        Types.DOUBLE));
    meta = ctx.getState(new ValueStateDescriptor<>(
        "pool-meta", new AvroTypeInfo<>(PoolMeta.class)));
    policyMemory = ctx.getState(new ValueStateDescriptor<>("policy-memory", Types.STRING));
    staged = ctx.getMapState(new MapStateDescriptor<>(
        "staged-files", Types.STRING, new AvroTypeInfo<>(StagedEntry.class)));
    charges = ctx.getMapState(new MapStateDescriptor<>(
        "staged-charges", Types.STRING, Types.STRING));
    fileStats = ctx.getMapState(new MapStateDescriptor<>(
        "file-stats", Types.STRING, new AvroTypeInfo<>(FileStat.class)));
    gantt = ctx.getMapState(new MapStateDescriptor<>("gantt", Types.STRING, Types.DOUBLE));
    mapping = ctx.getMapState(new MapStateDescriptor<>(
        "task-mapping", Types.STRING, Types.STRING));
    stages = ctx.getMapState(new MapStateDescriptor<>(
        "node-stages", Types.STRING, new AvroTypeInfo<>(NodeStage.class)));
    refs = ctx.getMapState(new MapStateDescriptor<>("ref-counts", Types.STRING, Types.INT));
    split = SplitStore.open(ctx);
    registry = ctx.getMapState(new MapStateDescriptor<>(
        "node-registry", Types.STRING, Types.STRING));
    jobArrivals = ctx.getMapState(new MapStateDescriptor<>(
        "job-ledger", Types.STRING, Types.LONG));
    jobBuckets = ctx.getMapState(new MapStateDescriptor<>(
        "job-ledger-buckets", Types.LONG, Types.INT));
    jobEntries = ctx.getMapState(new MapStateDescriptor<>(
        "job-ledger-entries", Types.STRING, Types.STRING));
    jobLedgerWorkflows = ctx.getMapState(new MapStateDescriptor<>(
        "job-ledger-workflow", Types.STRING, Types.STRING));
    jobWorkflows = ctx.getMapState(new MapStateDescriptor<>(
        "job-workflow", Types.STRING, Types.STRING));
    queueTree = ctx.getListState(new ListStateDescriptor<>(
        "queue-tree", new AvroTypeInfo<>(QueueConfig.class)));
    jobQueues = ctx.getMapState(new MapStateDescriptor<>("job-queue", Types.STRING, Types.STRING));
    queueJobs = ctx.getMapState(new MapStateDescriptor<>("queue-jobs", Types.STRING, Types.INT));
  }

  /** The pool's queues (the current key must be the pool). */
  PoolQueues queues() {
    return new PoolQueues(queueTree, jobQueues, queueJobs);
  }

  /** The pool's job ledger (the current key must be the pool). */
  JobLedger ledger(long retentionMs) {
    return new JobLedger(jobArrivals, jobBuckets, jobEntries, jobLedgerWorkflows, retentionMs);
  }

  // ------------------------------------------------------------------ keys

  /** (node, file) → {@code node SEP file}; see {@link #first} and {@link #second}. */
  static String pairKey(String node, String file) {
    return node + SEP + file;
  }

  static String first(String pairKey) {
    return pairKey.substring(0, pairKey.indexOf(SEP));
  }

  static String second(String pairKey) {
    return pairKey.substring(pairKey.indexOf(SEP) + 1);
  }

  /** Exact for any double: the start's bits, so a restored chart has the very same interval. */
  static String ganttKey(int storageNode, double start) {
    return storageNode + "" + SEP + Long.toHexString(Double.doubleToRawLongBits(start));
  }

  static int ganttNode(String key) {
    return Integer.parseInt(first(key));
  }

  static double ganttStart(String key) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(second(key), 16));
  }

  // ------------------------------------------------------------------ scalars

  /** The pool's stored scalars, or null for a pool never seen. */
  PoolMeta meta() throws Exception {
    return meta.value();
  }

  void saveMeta(PoolMeta m) throws Exception {
    meta.update(m);
  }

  String policyMemory() throws Exception {
    return policyMemory.value();
  }

  void savePolicyMemory(String memory) throws Exception {
    if (memory != null && !memory.equals(policyMemory.value())) {
      policyMemory.update(memory);
    }
  }

  /** The journal that writes the pool's file-family state through to these maps. */
  StateJournal journal(String pool) {
    FlinkStateJournal j = new FlinkStateJournal(pool, this);
    journals.put(pool, j);
    return j;
  }

  /**
   * Writes what the pool's journal collected during the current input (the current key must be
   * {@code pool}); the operator calls it at the end of every input and timer.
   */
  void flush(String pool) {
    FlinkStateJournal j = journals.get(pool);
    if (j != null) {
      j.flush();
    }
  }

  // ------------------------------------------------------------------ rebuild

  /**
   * Rebuilds the pool's heap state from keyed state: nodes, cache index (entries of nodes that
   * are gone are dropped), queued and running tasks, and the Khanna family's staging state.
   */
  void load(PoolState st, PoolMeta m) throws Exception {
    for (NodeState n : nodes.values()) {
      st.restoreNode(Conversions.fromState(n));
    }
    List<String> orphans = new ArrayList<>();
    for (Map.Entry<String, Long> e : cache.entries()) {
      String node = first(e.getKey());
      if (st.node(node) == null) {
        orphans.add(e.getKey());
      } else {
        st.restoreCacheEntry(node, second(e.getKey()), e.getValue());
      }
    }
    for (String k : orphans) {
      cache.remove(k);
    }
    Map<String, Double> parked = new java.util.HashMap<>();
    for (Map.Entry<String, Double> e : backoff.entries()) {
      parked.put(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, TaskState> e : tasks.entries()) {
      TaskState t = e.getValue();
      Double until = t.getNode() == null ? parked.get(e.getKey()) : null;
      if (until != null) {
        st.restoreParked(Conversions.fromState(t), until);
      } else if (t.getNode() == null) {
        st.restoreQueued(Conversions.fromState(t));
      } else {
        st.restoreRunning(Conversions.runningFromState(t));
      }
    }
    // only the staging state writes these maps: any entry means the pool had one (EFT staged, or
    // a Khanna policy before a switch), whatever the policy is now
    if (STAGING_POLICIES.contains(m.getPolicy()) || !mapping.isEmpty() || !staged.isEmpty()
        || !fileStats.isEmpty() || !gantt.isEmpty() || !stages.isEmpty() || !refs.isEmpty()) {
      loadStaging(st.staging(), m);
    }
    st.finishRestore();
  }

  private void loadStaging(StagingState sg, PoolMeta m) throws Exception {
    for (Map.Entry<String, StagedEntry> e : staged.entries()) {
      StagedEntry v = e.getValue();
      sg.restoreStagedFile(first(e.getKey()), second(e.getKey()), v.getBytes(), v.getInFlight(),
          v.getLastUse());
    }
    for (Map.Entry<String, String> e : charges.entries()) { // after the files they charge
      sg.restoreStagedCharge(first(e.getKey()), second(e.getKey()), e.getValue());
    }
    for (Map.Entry<String, FileStat> e : fileStats.entries()) {
      sg.restoreFileStats(e.getKey(), e.getValue().getAccessFreq(), e.getValue().getNumCopies());
    }
    for (Map.Entry<String, Double> e : gantt.entries()) {
      sg.restoreReservation(ganttNode(e.getKey()), ganttStart(e.getKey()), e.getValue());
    }
    for (Map.Entry<String, String> e : mapping.entries()) {
      sg.restoreMapping(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, NodeStage> e : stages.entries()) {
      sg.restoreStage(e.getKey(), e.getValue().getTaskId(), e.getValue().getPlannedCompletion());
    }
    for (Map.Entry<String, Integer> e : refs.entries()) {
      sg.restoreRef(first(e.getKey()), second(e.getKey()), e.getValue());
    }
    if (m.getMode() != null) {
      sg.restoreMode(m.getMode());
    }
    sg.finishRestore();
  }
}
