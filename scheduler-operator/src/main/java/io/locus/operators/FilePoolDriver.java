package io.locus.operators;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.policy.Policies;
import io.locus.core.policy.PendingExplainer;
import io.locus.core.policy.Policy;
import io.locus.core.policy.StatefulPolicy;
import io.locus.core.provision.Provisioner;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.core.split.SplitParams;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.model.Task;
import io.locus.schemas.CachedFile;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.ScaleAction;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a pool with a file policy (data diffusion FA/FCA/MCU/MCH/GCC, Online-HPS and its
 * baselines MET/MCT/SA/JDPDLL, hybrid COMPLEMENTARY_PLACE): each input becomes one change through
 * the core's {@link Scheduler} facade, then one dispatch; its commands become decisions. With
 * dynamic provisioning (DRP) the {@link Provisioner} is polled whenever the pool's event clock has
 * moved a poll period on, so provisioning is as deterministic as placement.
 *
 * <p>The pool state writes itself through to keyed state (its journal is {@link
 * FlinkStateJournal}); the counters and the policy's memory go to {@link PoolMeta} and {@link
 * PoolStore} after every input.
 *
 * <p>Why ~860 lines (issue 23's retry backoff added ~45, issue 24 the queue tree hand-over, the
 * queue knobs and the PREEMPTED event ~110): each task event is judged against the pool (attempt, node, proof of the
 * replayed placement, early completions) before it changes anything, and each outcome publishes
 * its job status; the pending-reason refresh ({@link PendingStatuses}), job statuses ({@link
 * JobStatuses}) and early completions ({@link EarlyCompletions}) are already their own classes.
 * The next cut is the task-event judgement ({@code check}) into its own class.
 */
final class FilePoolDriver implements PoolDriver {
  private static final Logger LOG = LoggerFactory.getLogger(FilePoolDriver.class);

  private final String pool;
  private final Scheduler scheduler;
  private final Provisioner provisioner;
  private final PoolStore store;
  private final EarlyCompletions early;
  /** The queued jobs' pending reasons as last published ({@link PendingStatuses}). */
  private final PendingStatuses pending;
  /** QUEUED statuses refreshed by the last {@link #metrics} pass, for the operator. */
  private List<JobStatus> refreshed = List.of();
  /** The queue configurations the scheduler was last given (keyed state {@code queue-tree}). */
  private List<io.locus.schemas.QueueConfig> queueConfigs;

  /**
   * A driver over a pool state already rebuilt (or new); the counters and the provisioner's
   * pending acquisitions come from {@code meta}. {@code restoreMemory}: a stateful policy takes
   * up its stored memory (a restart; not a policy newly set). The pool's provisioning and its
   * queue settings (max locality wait, preemption grace) come from {@code config}: they are
   * configuration, so a restored pool takes them from the job's options again, not from state.
   */
  FilePoolDriver(String pool, PoolState state, Policy policy, SchedulerConfig config,
      PoolMeta meta, PoolStore store, boolean restoreMemory) throws Exception {
    this.pool = pool;
    this.scheduler = new Scheduler(pool, state, policy);
    config.applyQueueSettings(scheduler);
    this.provisioner = new Provisioner(config.provisioningFor(pool));
    this.provisioner.restorePending(meta.getPendingNodes());
    this.store = store;
    this.early = new EarlyCompletions(store.split.early);
    this.pending = new PendingStatuses(pool);
    for (Map.Entry<String, Integer> e : store.split.spared.entries()) {
      state.restoreSpared(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, Integer> e : store.split.cancelling.entries()) {
      state.restoreCancelling(e.getKey(), e.getValue());
    }
    restorePreempting(state, store);
    Conversions.restoreCounters(state.counters(), meta);
    if (restoreMemory && policy instanceof StatefulPolicy sp && store.policyMemory() != null) {
      sp.restoreMemory(store.policyMemory());
    }
    syncQueues(); // after the restore: the pool's book is rebuilt from its restored tasks
    restorePreemptedCounts(state, store);
  }

  /**
   * Gives the scheduler the pool's queue tree as kept in state (PoolQueues, SET_QUEUES), when it
   * changed: on restore and after a control. A tree of the default queue alone is no tree (the
   * pool decides as it did before queues, bit for bit). The book of per-queue loads is derived
   * from the pool's queued and placed tasks, and the locality-wait clock from their placement and
   * submission times, so nothing else needs persisting for a restored pool to decide the same.
   */
  private void syncQueues() throws Exception {
    PoolQueues q = store.queues();
    List<io.locus.schemas.QueueConfig> configs = q.configs();
    if (configs.equals(queueConfigs)) {
      return;
    }
    queueConfigs = configs;
    io.locus.core.share.QueueTree tree = q.tree();
    scheduler.setQueues(tree.isDefaultOnly() ? null : tree);
  }

  /**
   * Null when this pool's policy chooses a node per task ({@link
   * io.locus.core.policy.ChoosesPerTask}), so fair share decides whose task runs next under a
   * queue tree; else what a SET_QUEUES ack says about it (the policy keeps its own order).
   */
  String queuesProblem() {
    if (scheduler.policy() instanceof io.locus.core.policy.ChoosesPerTask) {
      return null;
    }
    return "policy " + policy() + " places the whole queue at once (it maps jobs to nodes on"
        + " arrival or plans them together): the queues are kept and counted, but its own order"
        + " decides whose task runs next (fair share does under FA, FCA, MCU, MCH, GCC and EFT)";
  }

  PoolState state() {
    return scheduler.state();
  }

  /**
   * A file policy replaces the current one at once; queued tasks stay queued and are re-evaluated
   * by the new policy's next dispatch (see {@link #reevaluate}).
   */
  void setPolicy(Policy policy) {
    scheduler.setPolicy(policy);
  }

  @Override
  public int reevaluate() {
    return scheduler.state().reevaluateQueue();
  }

  /**
   * The policy's dispatch over the pool, or nothing while the pool is paused (PAUSE_POOL): then
   * no placement, withdrawal, eviction or replication is decided; the state changes wait in the
   * pool until RESUME_POOL dispatches them at once.
   */
  private List<Command> dispatch(PoolMeta meta) {
    return meta.getPaused() ? List.of() : scheduler.dispatch(now(meta));
  }

  @Override
  public String policy() {
    return scheduler.policy().name();
  }

  // ------------------------------------------------------------------ inputs

  @Override
  public PoolOutput onJob(JobSubmitted job, PoolMeta meta) throws Exception {
    PoolOutput out = new PoolOutput();
    if (job.getEvents() != null) {
      out.reject("job " + job.getJobId() + " is an event-range job (events set) but pool " + pool
          + " runs the file policy " + policy() + "; give the pool a split policy: "
          + String.join(", ", SplitParams.POLICIES));
    } else {
      long seq = meta.getNextSeq();
      meta.setNextSeq(seq + 1);
      // A completion remembered for this task (EarlyCompletions) is judged when the task is
      // placed (finish), not here: only the placement says which node the work is given to.
      Task t = Conversions.toTask(job, seq);
      if (!scheduler.applyJobArrival(t)) {
        LOG.debug("pool {}: duplicate arrival of {} ignored", pool, job.getJobId());
      } else {
        JobStatus s = queued(meta, t, "accepted");
        s.setWorkflow(job.getWorkflow());
        out.status(s);
      }
    }
    early.purge(meta.getClockMs());
    return finish(out, dispatch(meta), meta);
  }

  /**
   * A task event is applied only when it is about the attempt the pool has: its decision id must
   * be that attempt's placement ({@code pool/task/attempt}) and it must come from the node the
   * attempt runs on; anything else is rejected ({@code unknown-task}) with the reason. The
   * exceptions reconcile replays after a restore (PROTOCOL-12, "At-least-once safety"): STARTED or
   * COMPLETED of a task queued at that attempt is adopted; the same attempt reported by another
   * node than the one it runs on is resolved with a CancelTask; a COMPLETED of a task the pool
   * does not know yet, answering a placement of an earlier scheduler epoch, is remembered until
   * the task is placed, and acts only if that placement goes to the same node at the same attempt
   * ({@link #settleEarly}). With a cluster node secret the input gate has already checked that
   * the event's node was given the attempt (its proof of placement, {@code
   * InputGate#placementProblem}): "another node" is then one the attempt was really placed on too
   * (the same decision id sent to two nodes across a restore), and a remembered completion comes
   * from a node a scheduler placed that attempt on; without one, any node of the pool can claim
   * them (docs/operations.md, "Security").
   */
  @Override
  public PoolOutput onTaskEvent(TaskEvent e, PoolMeta meta) throws Exception {
    PoolOutput out = new PoolOutput();
    String problem = check(e, out, meta);
    if (problem != null) {
      early.purge(meta.getClockMs());
      String code = remembered ? DeadLetterCodes.EARLY_COMPLETION
          : notPreempting ? DeadLetterCodes.NOT_PREEMPTING : DeadLetterCodes.UNKNOWN_TASK;
      return finish(out.reject(code, e.getType() + " of task "
          + e.getTaskId() + " attempt " + e.getAttempt() + " from node " + e.getNode()
          + " rejected: " + problem), List.of(), meta);
    }
    return finish(out, changed ? dispatch(meta) : List.of(), meta);
  }

  /** Whether the last {@link #check} changed the pool (a dispatch follows). */
  private boolean changed;
  /** Whether the last {@link #check} kept a completion for a task not arrived yet. */
  private boolean remembered;
  /** Whether the last {@link #check} refused a PREEMPTED of an attempt not being preempted. */
  private boolean notPreempting;

  /** Applies the event if it is about the pool's attempt; else says why not (null: applied). */
  private String check(TaskEvent e, PoolOutput out, PoolMeta meta) throws Exception {
    changed = false;
    remembered = false;
    notPreempting = false;
    PoolState st = scheduler.state();
    String id = e.getTaskId();
    int attempt = e.getAttempt();
    String node = e.getNode();
    TaskEventType type = e.getType();
    if (type == TaskEventType.SHRUNK || type == TaskEventType.SUSPENDED) {
      return "file pools never shrink or suspend tasks (pool " + pool + " runs " + policy() + ")";
    }
    if (st.node(node) == null) {
      return "node " + node + " is not registered in pool " + pool;
    }
    String placement = Decisions.placementId(pool, id, attempt);
    if (e.getDecisionId() == null) {
      return "no decision id (expected " + placement + ")";
    }
    if (!e.getDecisionId().equals(placement)) {
      if (type == TaskEventType.REFUSED && e.getDecisionId().startsWith(pool + "/cancel/")) {
        LOG.debug("pool {}: {} refused cancel {}: {}", pool, node, e.getDecisionId(),
            e.getMessage());
        // A refused withdraw (the attempt started, or is not there) only ends the in-flight
        // mark, so the free slot may ask for another attempt; any other refused cancel: the
        // agent no longer runs the attempt we cancelled, nothing to do. It carries no proof of
        // placement (the node may not hold the attempt): only the node the attempt runs on, the
        // one the withdraw went to, can end the mark.
        RunningTask on = st.running(id);
        changed = on != null && on.node().equals(node)
            && scheduler.applyWithdrawRefused(id, attempt);
        return null;
      }
      return "decision id " + e.getDecisionId() + " is not the placement of that attempt ("
          + placement + ")";
    }
    RunningTask r = st.running(id);
    Task q = waiting(st, id);
    boolean runsAttempt = r != null && r.task().attempt() == attempt;
    boolean queuedAttempt = q != null && q.attempt() == attempt;
    switch (type) {
      case STARTED -> {
        if (runsAttempt && r.node().equals(node)) {
          // The slot was taken at placement; now the attempt left the node's local queue and
          // can no longer be withdrawn.
          scheduler.applyTaskStarted(id, attempt, node);
          if (!r.started() && !st.isCancelling(id)) {
            out.status(running(meta, r.task(), node, e));
          }
          return null;
        }
        if (runsAttempt) {
          // Placed twice after a restore: it runs on r.node() for the pool; the other goes.
          out.decide(cancel(meta, node, id, attempt, "attempt runs on " + r.node()));
          return null;
        }
        if (queuedAttempt) {
          scheduler.applyTaskAdopted(id, attempt, node, placement, now(meta));
          out.status(running(meta, q, node, e));
          changed = true;
          return null;
        }
      }
      case COMPLETED -> {
        if (runsAttempt) {
          completed(out, meta, r, e, scheduler.applyTaskCompleted(id, attempt, r.node(),
              e.getBytesLocal(), e.getBytesPeer(), e.getBytesStorage()));
          if (!r.node().equals(node)) {
            out.decide(cancel(meta, r.node(), id, attempt, "completed on " + node));
          }
          changed = true;
          return null;
        }
        if (queuedAttempt) {
          scheduler.applyQueuedTaskCompleted(id, attempt, e.getBytesLocal(), e.getBytesPeer(),
              e.getBytesStorage());
          out.status(JobStatuses.ended(JobStatuses.of(pool, meta, q, JobState.COMPLETED)
              .setNode(node).setStartTimeMs(e.getStartTimeMs())).build());
          changed = true;
          return null;
        }
        if (supersededBySpare(st, id, attempt, r, q)) {
          // The node was lost or registered again before this completion was read (node reports
          // and task events are separate topics): the work was done, so it counts, and the
          // attempt that replaced it is not needed.
          if (r != null) {
            completed(out, meta, r, e, scheduler.applyTaskCompleted(id, r.task().attempt(),
                r.node(), e.getBytesLocal(), e.getBytesPeer(), e.getBytesStorage()));
            out.decide(cancel(meta, r.node(), id, r.task().attempt(),
                "attempt " + attempt + " completed on " + node));
          } else {
            scheduler.applyQueuedTaskCompleted(id, q.attempt(), e.getBytesLocal(),
                e.getBytesPeer(), e.getBytesStorage());
            out.status(JobStatuses.ended(JobStatuses.of(pool, meta, q, JobState.COMPLETED)
                .setNode(node).setStartTimeMs(e.getStartTimeMs())).build());
          }
          changed = true;
          return null;
        }
        if (r == null && q == null) {
          if (e.getEpoch() >= meta.getEpoch()) {
            // The placement it answers was made in this epoch (or a later one: not by this
            // scheduler), so after the task's arrival: the task finished, or never arrived.
            return "the pool does not know the task (finished, or never arrived); the completion "
                + "answers a placement of epoch " + e.getEpoch() + ", not one made before this "
                + "scheduler's restore (epoch " + meta.getEpoch() + "): not remembered";
          }
          early.remember(id, new EarlyCompletions.Early(attempt, node, meta.getClockMs(),
              e.getBytesLocal(), e.getBytesPeer(), e.getBytesStorage()));
          remembered = true;
          return "the pool does not know the task (finished, or its arrival not replayed yet); "
              + "remembered for " + EarlyCompletions.RETENTION_MS / 3_600_000
              + " h of record clock in case its arrival comes: it counts only if the task is "
              + "then placed on node " + node + " at attempt " + attempt;
        }
      }
      case FAILED, REFUSED -> {
        if (runsAttempt && r.node().equals(node)) {
          // A failure waits out the retry backoff; a refusal (the agent would not take the
          // placement: nothing ran) is placeable again at once.
          PoolState.EndOutcome end = type == TaskEventType.FAILED
              ? scheduler.applyTaskFailed(id, attempt, node, now(meta))
              : scheduler.applyTaskFailed(id, attempt, node);
          String why = type + " on node " + node + (e.getMessage() == null ? ""
              : ": " + e.getMessage());
          if (end == PoolState.EndOutcome.REQUEUED && st.parked(id) != null) {
            out.status(backingOff(meta, id, "attempt " + attempt + " " + why));
          } else if (end == PoolState.EndOutcome.REQUEUED) {
            out.status(queued(meta, st.queued(id), "attempt " + attempt + " " + why));
          } else if (end == PoolState.EndOutcome.FAILED_PERMANENTLY) {
            out.status(JobStatuses.ended(JobStatuses.of(pool, meta, r.task(), JobState.FAILED)
                .setNode(node).setStartTimeMs(e.getStartTimeMs())
                .setReason("attempt " + attempt + " " + why + " (no retry left)")).build());
          }
          changed = true;
          return null;
        }
      }
      case PREEMPTED -> {
        return preempted(e, r, out, meta);
      }
      case WITHDRAWN -> {
        if (runsAttempt && r.node().equals(node)) {
          // Late binding: the node took the attempt out of its local queue at our request; the
          // task goes back to the queue at its position as a spared attempt, not a failure.
          if (scheduler.applyTaskWithdrawn(id, attempt, node) == PoolState.EndOutcome.REQUEUED) {
            out.status(queued(meta, st.queued(id), "attempt " + attempt
                + " withdrawn from node " + node + "'s local queue for a free slot"));
          }
          changed = true;
          return null;
        }
      }
      default -> {
        return "unexpected task event type " + type;
      }
    }
    return where(r, q);
  }

  /**
   * The task queued, or parked waiting out its retry backoff (for reconciliation a parked attempt
   * is as good as a queued one: an event about it proves its backoff ended before a restore), or
   * null.
   */
  private static Task waiting(PoolState st, String id) {
    Task q = st.queued(id);
    if (q != null) {
      return q;
    }
    io.locus.core.state.BackoffQueue.Entry p = st.parked(id);
    return p == null ? null : p.task();
  }

  /**
   * Whether {@code attempt} is older than the task's current attempt only because of spared
   * re-placements (node lost or re-registered), never a failure: then a completion of it is real
   * work done, not a stale or failed attempt.
   */
  private static boolean supersededBySpare(PoolState st, String id, int attempt, RunningTask r,
      Task q) {
    int current = r != null ? r.task().attempt() : q != null ? q.attempt() : -1;
    return current > attempt && current - attempt <= st.sparedAttempts(id);
  }

    private static String where(RunningTask r, Task q) {
    if (r != null) {
      return "attempt " + r.task().attempt() + " of the task runs on " + r.node();
    }
    if (q != null) {
      return "the task is queued at attempt " + q.attempt() + ", not running";
    }
    return "the pool does not know the task (finished, or never arrived)";
  }

  // ------------------------------------------------------------------ preemption (issue 24)

  /** The preemptions in flight the pool's keyed state holds ({@code task-preempting}). */
  private static void restorePreempting(PoolState state, PoolStore store) throws Exception {
    for (Map.Entry<String, Integer> e : store.split.preempting.entries()) {
      state.restorePreempting(e.getKey(), e.getValue());
    }
  }

  /**
   * The queues' cumulative preempted counts ({@code queue-preempted}), into the book the restore
   * rebuilt (a leaf the tree no longer has is skipped; later trees keep them, {@code QueueBook}).
   */
  private static void restorePreemptedCounts(PoolState state, PoolStore store) throws Exception {
    if (state.queueLedger() == null) {
      return;
    }
    for (Map.Entry<String, Long> e : store.split.queuePreempted.entries()) {
      state.queueLedger().restorePreempted(e.getKey(), e.getValue());
    }
  }

  /**
   * A preemption becomes a CancelTask with preempt and the grace period in ms, to the attempt's
   * node (id {@code pool/cancel/seq}); the job's status changes when the node answers.
   */
  private Decision preemption(PoolMeta meta, Command.Preempt p) {
    LOG.info("pool {}: preempting {} attempt {} on {} (grace {} s): {}", pool, p.taskId(),
        p.attempt(), p.node(), p.graceSeconds(), p.reason());
    return Decisions.sequenced(pool, meta, "cancel", p.node(), CancelTask.newBuilder()
        .setTaskId(p.taskId()).setAttempt(p.attempt()).setReason(p.reason()).setPreempt(true)
        .setGraceMs(Conversions.millis(p.graceSeconds())).build());
  }

  /**
   * PREEMPTED: the node stopped the attempt the pool asked it to preempt. The attempt ends, its
   * slot is free, the task is queued again (spared: not a failure) and the job goes PREEMPTED,
   * then QUEUED; a task cancelled meanwhile only frees its slot. Anything else (an attempt not
   * being preempted, a duplicate answer, another node) is refused as {@code not-preempting} and
   * changes nothing.
   */
  private String preempted(TaskEvent e, RunningTask r, PoolOutput out, PoolMeta meta) {
    PoolState st = scheduler.state();
    String id = e.getTaskId();
    int attempt = e.getAttempt();
    String node = e.getNode();
    if (r == null || r.task().attempt() != attempt || !r.node().equals(node)
        || !st.isPreempting(id)) {
      notPreempting = true;
      return r == null || r.task().attempt() != attempt ? where(r, waiting(st, id))
          : !r.node().equals(node) ? "the attempt runs on node " + r.node() + ", not " + node
          : "the pool did not ask node " + node + " to preempt it";
    }
    PoolState.EndOutcome end = scheduler.applyTaskPreempted(id, attempt, node);
    changed = true;
    if (end == PoolState.EndOutcome.REQUEUED) {
      String why = "attempt " + attempt + " preempted on node " + node
          + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
      out.status(JobStatuses.of(pool, meta, r.task(), JobState.PREEMPTED).setNode(node)
          .setStartTimeMs(e.getStartTimeMs()).setReason(why).build());
      out.status(queued(meta, st.queued(id), why + ", to give its slot back to a queue below"
          + " its guarantee"));
    }
    return null;
  }

  private Decision cancel(PoolMeta meta, String node, String taskId, int attempt, String why) {
    LOG.info("pool {}: cancelling {} attempt {} on {}: {}", pool, taskId, attempt, node, why);
    return Decisions.sequenced(pool, meta, "cancel", node, CancelTask.newBuilder()
        .setTaskId(taskId).setAttempt(attempt).setReason(why).build());
  }

  @Override
  public PoolOutput onNodeReport(NodeReport r, PoolMeta meta) throws Exception {
    String node = r.getNode();
    double now = now(meta);
    PoolState st = scheduler.state();
    switch (r.getType()) {
      case REGISTER -> {
        if (st.node(node) == null) {
          provisioner.onNodeRegistered(node, now);
        }
        PoolOutput out = new PoolOutput();
        requeued(out, meta, scheduler.applyNodeRegistered(node, r.getSlots(), queueDepth(r, meta),
            r.getCacheCapacityBytes(), r.getEndpoint(), now), "node " + node
            + " registered again (its agent restarted)");
        if (!r.getAdded().isEmpty()) {
          scheduler.applyCacheSnapshot(node, r.getSeq(), files(r.getAdded()));
        }
        return finish(out, dispatch(meta), meta);
      }
      case HEARTBEAT -> {
        if (st.node(node) == null) {
          // The scheduler lost this node (e.g. it was released); it has to register again.
          LOG.warn("heartbeat from unregistered node {} in pool {}", node, pool);
          return finish(new PoolOutput(), List.of(), meta);
        }
        // An agent can start draining itself; only a RESUME_NODE control ends a drain, so a
        // heartbeat never undoes a drain the scheduler (provisioning) or an operator imposed.
        if (r.getDraining() && !st.node(node).draining()) {
          scheduler.applyDrain(node, true);
        }
        scheduler.applyQueueDepth(node, queueDepth(r, meta));
      }
      case CACHE_DELTA -> {
        if (st.node(node) == null) {
          return finish(new PoolOutput(), List.of(), meta);
        }
        scheduler.applyCacheDelta(node, r.getSeq(), files(r.getAdded()), r.getRemoved());
      }
      case CACHE_SNAPSHOT -> {
        if (st.node(node) == null) {
          return finish(new PoolOutput(), List.of(), meta);
        }
        scheduler.applyCacheSnapshot(node, r.getSeq(), files(r.getAdded()));
      }
      case LEAVE -> {
        PoolOutput out = new PoolOutput();
        requeued(out, meta, scheduler.applyNodeReleased(node), "node " + node + " left");
        provisioner.onNodeReleased(node);
        return finish(out, dispatch(meta), meta);
      }
      default -> throw new IllegalArgumentException("unexpected report type " + r.getType());
    }
    return finish(new PoolOutput(), dispatch(meta), meta);
  }

  /**
   * The local-queue depth the pool uses on the reporting node: what the agent advertises, capped
   * by the pool parameter {@code maxQueueDepth} (a negative advertisement counts as 0).
   */
  private static int queueDepth(NodeReport r, PoolMeta meta) {
    return Math.max(0, Math.min(r.getQueueDepth(), Policies.maxQueueDepth(meta.getParams())));
  }

  @Override
  public PoolOutput onNodeLost(String node, PoolMeta meta) throws Exception {
    PoolOutput out = new PoolOutput();
    requeued(out, meta, scheduler.applyNodeReleased(node), "node " + node
        + " lost (missed its heartbeats)");
    provisioner.onNodeReleased(node);
    return finish(out, dispatch(meta), meta);
  }

  /**
   * CANCEL: a queued task leaves the queue; a placed one gets a CancelTask to its node and keeps
   * its slot until the node answers ({@code PoolState#cancelPlaced}); either way it ends
   * CANCELLED at once. A task already being cancelled is finished for the pool: refused.
   */
  @Override
  public PoolOutput onJobCommand(JobCommand c, boolean arrived, PoolMeta meta) throws Exception {
    PoolOutput out = new PoolOutput();
    PoolState st = scheduler.state();
    String id = c.getJobId();
    String why = c.getReason() == null || c.getReason().isEmpty() ? "cancelled by the user"
        : c.getReason();
    Task q = st.cancelQueued(id);
    RunningTask r = q == null ? st.cancelPlaced(id) : null;
    if (q == null && r == null) {
      return finish(out.reject(arrived || st.isCancelling(id) ? DeadLetterCodes.JOB_FINISHED
          : DeadLetterCodes.UNKNOWN_JOB, cancelRefusal(id, arrived || st.isCancelling(id))),
          List.of(), meta);
    }
    JobStatus.Builder s = JobStatuses.ended(JobStatuses.of(pool, meta, q != null ? q : r.task(),
        JobState.CANCELLED)).setReason(why).setRequestId(c.getRequestId());
    if (r != null) {
      s.setNode(r.node());
      out.decide(cancel(meta, r.node(), id, r.task().attempt(), "job cancelled: " + why));
    }
    out.status(s.build());
    // a queued task's leaving frees nothing; a cancelled attempt's slot frees when its node answers
    return finish(out, List.of(), meta);
  }

  private String cancelRefusal(String id, boolean finished) {
    return finished
        ? "CANCEL of job '" + InputGate.shown(id) + "' refused: it already completed, failed for "
            + "good or was cancelled in pool " + pool
        : "CANCEL of job '" + InputGate.shown(id) + "' refused: pool " + pool + " does not know "
            + "it (never submitted, its id left the retention window, or the cancel came before "
            + "the job: send it again)";
  }

  // ------------------------------------------------------------------ job status

  /** "MCH: 3 MB local, 0 B from peers, 1 MB from storage": why the attempt went there. */
  private static String placedBy(Command.Run run) {
    io.locus.core.model.Reason r = run.reason();
    return r == null ? "" : r.policy() + ": " + r.localBytes() + " B local, " + r.peerBytes()
        + " B from peers, " + r.storageBytes() + " B from storage";
  }

  private JobStatus queued(PoolMeta meta, Task t, String reason) {
    JobStatus s = JobStatuses.queued(pool, meta, t, reason, scheduler.state().nodes());
    pending.published(t.jobId(), s.getPendingCode());
    return s;
  }

  /**
   * QUEUED of a task whose next attempt waits out its retry backoff: code {@code backoff} (or the
   * pool-wide one, or {@code no-fit}, which come first), and the failure followed by when the
   * next attempt is released ({@link PendingExplainer}).
   */
  private JobStatus backingOff(PoolMeta meta, String id, String why) {
    io.locus.core.policy.Pending p = PendingReason.forTask(scheduler, meta, id);
    JobStatus s = JobStatuses.of(pool, meta, scheduler.state().parked(id).task(),
        JobState.QUEUED).setReason(why + "; " + p.text()).setPendingCode(p.code().code())
        .build();
    pending.published(s.getJobId(), s.getPendingCode());
    return s;
  }

  private void requeued(PoolOutput out, PoolMeta meta, List<Task> tasks, String why) {
    for (Task t : tasks) {
      out.status(queued(meta, t, why + "; attempt " + (t.attempt() - 1) + " is placed again"));
    }
  }

  private JobStatus running(PoolMeta meta, Task t, String node, TaskEvent e) {
    return JobStatuses.of(pool, meta, t, JobState.RUNNING).setNode(node)
        .setStartTimeMs(e.getStartTimeMs() > 0 ? e.getStartTimeMs() : meta.getClockMs())
        .build();
  }

  /** COMPLETED of a placed attempt, unless it was the attempt of a cancelled task. */
  private void completed(PoolOutput out, PoolMeta meta, RunningTask r, TaskEvent e,
      PoolState.EndOutcome end) {
    if (end == PoolState.EndOutcome.COMPLETED) {
      out.status(JobStatuses.ended(JobStatuses.of(pool, meta, r.task(), JobState.COMPLETED)
          .setNode(r.node()).setStartTimeMs(e.getStartTimeMs())).build());
    }
  }

  @Override
  public String drain(String node, boolean draining) {
    if (scheduler.state().node(node) == null) {
      return "node '" + node + "' is not registered in pool " + pool;
    }
    scheduler.applyDrain(node, draining);
    return null;
  }

  @Override
  public PoolOutput afterControl(PoolMeta meta, boolean applied) throws Exception {
    if (applied) {
      syncQueues();
    }
    return finish(new PoolOutput(), applied ? dispatch(meta) : List.of(), meta);
  }

  @Override
  public String busy() {
    PoolState st = scheduler.state();
    int waiting = st.queueLength() + st.backoffLength();
    if (waiting > 0 || !st.running().isEmpty()) {
      return "pool " + pool + " has " + waiting + " queued" + (st.backoffLength() == 0 ? ""
          : " (" + st.backoffLength() + " in retry backoff)") + " and " + st.running().size()
          + " running task(s)";
    }
    return null;
  }

  @Override
  public void metrics(SchedulerMetrics.Builder b, PoolMeta meta) {
    PoolState st = scheduler.state();
    PoolState.Counters c = st.counters();
    b.setPolicy(policy())
        // a task waiting out its retry backoff is queued for its job (QUEUED, code backoff)
        .setQueueLength(st.queueLength() + st.backoffLength())
        .setRunningTasks(st.running().size())
        .setRegisteredNodes(st.nodes().size())
        .setTotalSlots(st.registeredSlots())
        .setBusySlots(st.busySlots())
        .setPlacements(c.placements)
        .setCompletions(c.completions)
        .setFailures(c.failures)
        .setBytesLocal(c.bytesLocal)
        .setBytesPeer(c.bytesPeer)
        .setBytesStorage(c.bytesStorage)
        .setPendingByCode(PendingReason.fileCounts(scheduler, meta, pending.begin(meta)));
    refreshed = pending.end(true);
  }

  @Override
  public List<JobStatus> pendingStatuses() {
    List<JobStatus> r = refreshed;
    refreshed = List.of();
    return r;
  }

  // ------------------------------------------------------------------ output

  /**
   * The commands become decisions; then provisioning; then the counters and the policy's memory
   * are saved (the operator stores {@code meta} after every input).
   */
  private PoolOutput finish(PoolOutput out, List<Command> cmds, PoolMeta meta) throws Exception {
    List<Command> todo = cmds;
    while (!todo.isEmpty()) {
      boolean freed = decide(out, todo, meta);
      // a placement settled by its remembered completion freed its slot: dispatch again
      todo = freed ? dispatch(meta) : List.of();
    }
    provision(out, meta);
    PoolState st = scheduler.state();
    Conversions.saveCounters(st.counters(), meta);
    if (st.hasStaging()) {
      meta.setMode(st.staging().mode());
    }
    if (scheduler.policy() instanceof StatefulPolicy sp) {
      store.savePolicyMemory(sp.memory());
    }
    return out;
  }

  /**
   * The commands become decisions, except a placement settled by a remembered completion ({@link
   * #settleEarly}); true if one was (its slot is free again).
   */
  private boolean decide(PoolOutput out, List<Command> cmds, PoolMeta meta) throws Exception {
    boolean freed = false;
    for (Command c : cmds) {
      if (c instanceof Command.Run run) {
        if (settleEarly(run, out, meta)) {
          freed = true;
          continue;
        }
        out.decide(Decisions.placement(pool, meta, run.node(), Conversions.toPlaceTask(run)));
        out.status(JobStatuses.of(pool, meta, run.task(), JobState.PLACED).setNode(run.node())
            .setReason(placedBy(run)).build());
      } else if (c instanceof Command.Evict ev) {
        out.decide(Decisions.sequenced(pool, meta, "evict", ev.node(), EvictFiles.newBuilder()
            .setFiles(new ArrayList<>(ev.files())).setReason(ev.reason()).build()));
      } else if (c instanceof Command.Preempt p) {
        out.decide(preemption(meta, p));
      } else if (c instanceof Command.Withdraw w) {
        LOG.debug("pool {}: withdrawing {} attempt {} from {}: {}", pool, w.taskId(),
            w.attempt(), w.node(), w.reason());
        out.decide(Decisions.sequenced(pool, meta, "cancel", w.node(), CancelTask.newBuilder()
            .setTaskId(w.taskId()).setAttempt(w.attempt()).setReason(w.reason())
            .setOnlyIfQueued(true).build()));
      } else if (c instanceof Command.Replicate rep) {
        out.decide(Decisions.sequenced(pool, meta, "replicate", rep.node(),
            ReplicateFile.newBuilder()
                .setFileId(rep.unit().id())
                .setBytes(rep.unit().bytes())
                .setSource(FetchSource.valueOf(rep.source().name()))
                .setPeerNode(rep.peer())
                .setLocation(rep.unit().location())
                .setReason(rep.reason())
                .build()));
      }
    }
    return freed;
  }

  /**
   * A placement of a task with a remembered early completion (PROTOCOL-12, "At-least-once
   * safety"). The genuine case: the scheduler placed the attempt on a node after its last
   * checkpoint, the node completed it, and after the restore the completion was read before the
   * replayed arrival; the replay places the task again, with the same decision id, and on the
   * same node unless the pool's loads differ. So the completion counts (the task is finished, the
   * placement not sent: it was sent before the restore) only when this placement gives that node
   * that attempt: a node can finish only work the scheduler gives it. Otherwise the completion is
   * dropped with a dead letter and the placement goes out: a forged completion of a task not yet
   * submitted finishes nothing, and a genuine one whose replay went elsewhere costs one more run.
   * True if the placement was settled.
   */
  private boolean settleEarly(Command.Run run, PoolOutput out, PoolMeta meta) throws Exception {
    String id = run.task().taskId();
    EarlyCompletions.Early e = early.take(id);
    if (e == null) {
      return false;
    }
    int attempt = run.task().attempt();
    if (e.node().equals(run.node()) && e.attempt() == attempt) {
      LOG.info("pool {}: {} attempt {} completed on {} before its arrival was replayed; not placed "
          + "again", pool, id, attempt, run.node());
      scheduler.applyTaskCompleted(id, attempt, run.node(), e.bytesLocal(), e.bytesPeer(),
          e.bytesStorage());
      out.status(JobStatuses.ended(JobStatuses.of(pool, meta, run.task(), JobState.COMPLETED)
          .setNode(run.node())).build());
      return true;
    }
    out.discard(DeadLetterCodes.EARLY_COMPLETION, "COMPLETED of task " + id + " attempt "
        + e.attempt() + " from node " + e.node() + ", remembered at pool clock " + e.clockMs()
        + " ms before the task arrived, dropped: the task is placed on node " + run.node()
        + " at attempt " + attempt + ", and a completion counts only from the node given the "
        + "attempt");
    return false;
  }

  /**
   * DRP: a node to release is drained at once, so it gets no new work while it goes. A paused pool
   * asks for nothing (its poll resumes with the pool).
   */
  private void provision(PoolOutput out, PoolMeta meta) {
    ProvisioningConfig pc = provisioner.config();
    long clock = meta.getClockMs();
    if (!pc.dynamic() || meta.getPaused()
        || clock - meta.getLastPollMs() < Conversions.millis(pc.pollSeconds())) {
      return;
    }
    meta.setLastPollMs(clock);
    for (Command c : provisioner.poll(scheduler.state(), Conversions.seconds(clock),
        Integer.MAX_VALUE)) {
      long seq = meta.getScaleRequests() + 1;
      meta.setScaleRequests(seq);
      ScaleRequest.Builder r = ScaleRequest.newBuilder()
          .setRequestId(pool + "/scale/" + seq)
          .setPool(pool)
          .setTimeMs(clock)
          .setEpoch(meta.getEpoch());
      if (c instanceof Command.Acquire a) {
        r.setAction(ScaleAction.ACQUIRE).setNodes(a.nodes()).setReason(a.reason());
      } else if (c instanceof Command.Release rel) {
        scheduler.applyDrain(rel.node(), true);
        r.setAction(ScaleAction.RELEASE).setNode(rel.node()).setReason(rel.reason());
      } else {
        continue;
      }
      out.scale(r.build());
    }
    meta.setPendingNodes(provisioner.pendingNodes());
  }

  private static double now(PoolMeta meta) {
    return Conversions.seconds(meta.getClockMs());
  }

  private static Map<String, Long> files(List<CachedFile> files) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (CachedFile f : files) {
      out.put(f.getFileId(), f.getBytes());
    }
    return out;
  }
}
