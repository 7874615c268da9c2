package io.locus.operators;

import io.locus.core.share.QueueConfigException;
import io.locus.core.share.QueueTree;
import io.locus.core.share.QueueTreeDiff;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.QueueConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.MapState;

/**
 * One pool's queue tree (issue 24) and the queues its unfinished jobs name: what a SET_QUEUES
 * control replaces, what decides whether a job's queue is known, and what job-status shows. A
 * file pool's driver gives the tree to its scheduler, which places by fair share
 * ({@code FilePoolDriver#syncQueues}).
 *
 * <p>Keyed state (the current key is the pool): {@code queue-tree} (the configurations as last
 * applied, in their order; empty: the default queue alone), {@code job-queue} (job id → queue of
 * an unfinished job that names a queue other than the default one) and {@code queue-jobs} (queue
 * → how many of those jobs name it). A tree is replaced whole or not at all, in one input, so a
 * checkpoint holds either the old tree or the new one.
 *
 * <p><b>What a tree may not remove.</b> The core's rule ({@code QueueLedger#blockers}) is that a
 * tree may not remove, or give child queues to, a queue that holds queued or running work. The
 * queued and running tasks per queue are the pool state's to count, which the placement will
 * keep with fair share; until then this class keeps the same rule over what it can know without
 * the pool state: a job counts from its acceptance to its final status (COMPLETED, FAILED,
 * CANCELLED), so a queue any unfinished job names cannot be removed or split.
 *
 * <p>Cost: a pool none of whose jobs named a queue reads nothing per status (the in-use flag is
 * kept on the heap and asked of the state once after a restore), as in {@link JobWorkflows}.
 */
final class PoolQueues {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PoolQueues.class);
  private final ListState<QueueConfig> treeState;
  private final MapState<String, String> jobQueues;
  private final MapState<String, Integer> queueJobs;
  private List<QueueConfig> configs;
  private QueueTree tree;
  private Boolean inUse;

  PoolQueues(ListState<QueueConfig> treeState, MapState<String, String> jobQueues,
      MapState<String, Integer> queueJobs) {
    this.treeState = treeState;
    this.jobQueues = jobQueues;
    this.queueJobs = queueJobs;
  }

  /** The pool's tree (the default queue alone until a SET_QUEUES applies). */
  QueueTree tree() throws Exception {
    if (tree == null) {
      List<QueueConfig> stored = new ArrayList<>();
      Iterable<QueueConfig> it = treeState.get();
      if (it != null) {
        it.forEach(stored::add);
      }
      configs = List.copyOf(stored);
      try {
        tree = stored.isEmpty() ? QueueTree.defaultOnly() : QueueConfigs.tree(stored);
      } catch (QueueConfigException e) {
        // Stored only after it was built, so only a newer, stricter rule gets here. Failing the
        // pool's every input would crash-loop the job; the pool runs with its default queue
        // alone (jobs naming other queues are refused, saying which) until a tree is applied.
        LOG.error("the stored queue tree no longer builds ({}); the pool has its default queue"
            + " alone until locus queues apply", e.getMessage());
        tree = QueueTree.defaultOnly();
      }
    }
    return tree;
  }

  /** The configurations as last applied (empty: the default queue alone). */
  List<QueueConfig> configs() throws Exception {
    tree();
    return configs;
  }

  /** The outcome of a SET_QUEUES: applied with its changes (none: unchanged), or refused. */
  record Outcome(boolean applied, List<String> changes, List<String> reasons) {}

  /** Replaces the tree by {@code next} whole, or refuses with every reason and changes nothing. */
  Outcome apply(List<QueueConfig> next) throws Exception {
    QueueTree candidate;
    try {
      candidate = QueueConfigs.tree(next);
    } catch (QueueConfigException e) {
      return new Outcome(false, List.of(), e.problems());
    }
    List<String> blockers = blockers(candidate);
    if (!blockers.isEmpty()) {
      return new Outcome(false, List.of(), blockers);
    }
    QueueTreeDiff diff = tree().diff(candidate);
    if (diff.isEmpty()) {
      return new Outcome(true, List.of(), List.of());
    }
    treeState.update(new ArrayList<>(next));
    configs = List.copyOf(next);
    tree = candidate;
    return new Outcome(true, diff.describe(), List.of());
  }

  /** Each queue that unfinished jobs name and {@code next} removes or gives children to. */
  private List<String> blockers(QueueTree next) throws Exception {
    List<String> out = new ArrayList<>();
    if (!mayHaveJobs()) {
      return out;
    }
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, Integer> e : queueJobs.entries()) {
      names.add(e.getKey());
    }
    names.sort(io.locus.core.model.Ids.ORDER); // the reasons in a stable order
    for (String q : names) {
      int n = queueJobs.get(q);
      if (!next.contains(q)) {
        out.add("queue '" + q + "' has " + n + " unfinished job(s) and the new configuration "
            + "removes it");
      } else if (!next.isLeaf(q)) {
        out.add("queue '" + q + "' has " + n + " unfinished job(s) and the new configuration "
            + "gives it child queues (jobs run in leaves)");
      }
    }
    return out;
  }

  /** Why the pool refuses {@code job}'s queue, or null when the queue is a leaf of its tree. */
  String refusal(JobSubmitted job) throws Exception {
    return tree().resolve(job.getQueue()).refusal();
  }

  /** Remembers the queue of an accepted job until its final status (default queue: nothing). */
  void accepted(JobSubmitted job) throws Exception {
    String q = job.getQueue();
    if (q == null || q.isBlank() || QueueTree.DEFAULT.equals(q)) {
      return;
    }
    jobQueues.put(job.getJobId(), q);
    Integer n = queueJobs.get(q);
    queueJobs.put(q, n == null ? 1 : n + 1);
    inUse = true;
  }

  /** Names the job's queue on {@code s} and forgets the job at its final status. */
  void stamp(JobStatus s) throws Exception {
    if (s.getQueue() != null || !mayHaveJobs()) {
      return;
    }
    String q = jobQueues.get(s.getJobId());
    if (q == null) {
      return;
    }
    s.setQueue(q);
    if (JobWorkflows.isFinal(s.getState())) {
      jobQueues.remove(s.getJobId());
      Integer n = queueJobs.get(q);
      if (n == null || n <= 1) {
        queueJobs.remove(q);
      } else {
        queueJobs.put(q, n - 1);
      }
    }
  }

  /** Unfinished jobs that name {@code queue} (tests read it). */
  int unfinished(String queue) throws Exception {
    Integer n = mayHaveJobs() ? queueJobs.get(queue) : null;
    return n == null ? 0 : n;
  }

  private boolean mayHaveJobs() throws Exception {
    if (inUse == null) {
      inUse = !queueJobs.isEmpty();
    }
    return inUse;
  }
}
