package io.locus.agent;

import io.locus.schemas.units.ByteSize;

/**
 * Counters of one agent (or, summed with {@link #plus}, of a host). A consistent snapshot: taken
 * under the agent's lock.
 *
 * @param tasksStarted PlaceTask decisions accepted (STARTED emitted)
 * @param tasksCompleted COMPLETED emitted
 * @param tasksFailed FAILED emitted (cancelled, staging failed, non-zero exit, agent stopped)
 * @param tasksRefused REFUSED emitted (stale epoch, no free slot, attempt already running,
 *     draining, or a {@link DecisionGuard}'s refusal; see {@link NodeAgent#refusals()})
 * @param bytesLocal input bytes read from this node's cache
 * @param bytesPeer input bytes read from peers
 * @param bytesStorage input bytes read from persistent storage
 * @param peerFallbacks peer reads that found the hint stale and went to storage
 * @param sharedFetches inputs that waited for another task's in-flight fetch of the same file
 * @param duplicateDecisions decisions dropped because their id was already seen
 * @param staleDecisions decisions refused for an epoch older than one already seen
 * @param ignoredDecisions decisions for another node or pool, or arriving when not started
 * @param filesEvictedOnRequest files removed by EvictFiles
 * @param evictionsRefused EvictFiles entries refused because a running task pins the file
 * @param replicatedBytes bytes fetched by ReplicateFile
 * @param running tasks running now
 * @param cacheUsedBytes bytes in the cache now
 * @param cacheFiles files in the cache now
 * @param tasksSuspended SUSPENDED emitted (event-range tasks stopped by a SuspendTask)
 * @param shrinksAcknowledged SHRUNK emitted (answers to ShrinkTask, and to a shrink or suspend of
 *     a task that had already ended)
 * @param eventsProcessed events of event-range tasks processed (COMPLETED, SUSPENDED or FAILED)
 * @param duplicatesAnswered duplicate PlaceTasks answered with the latest event of their attempt
 * @param foreignDecisions decisions addressed to another agent instance of the node, refused
 * @param absurdEpochs decisions refused for an epoch absurdly far above the highest seen
 * @param resyncs ResyncNode decisions obeyed
 * @param queued placed attempts waiting in the local queue now (not started)
 * @param tasksWithdrawn queued attempts withdrawn by the scheduler (WITHDRAWN emitted)
 * @param tasksPreempted attempts stopped for a preemption (PREEMPTED emitted)
 * @param outputsCached outputs of completed tasks put in the cache ({@link TaskOutputs})
 * @param outputBytesCached their bytes
 * @param outputsNotCached outputs of completed tasks that were not cached (too large, or the
 *     cached copy was in use)
 */
public record AgentStats(
    long tasksStarted,
    long tasksCompleted,
    long tasksFailed,
    long tasksRefused,
    long bytesLocal,
    long bytesPeer,
    long bytesStorage,
    long peerFallbacks,
    long sharedFetches,
    long duplicateDecisions,
    long staleDecisions,
    long ignoredDecisions,
    long filesEvictedOnRequest,
    long evictionsRefused,
    long replicatedBytes,
    int running,
    long cacheUsedBytes,
    int cacheFiles,
    long tasksSuspended,
    long shrinksAcknowledged,
    long eventsProcessed,
    long duplicatesAnswered,
    long foreignDecisions,
    long absurdEpochs,
    long resyncs,
    int queued,
    long tasksWithdrawn,
    long outputsCached,
    long outputBytesCached,
    long outputsNotCached,
    long tasksPreempted) {

  public static final AgentStats ZERO =
      new AgentStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0);

  public AgentStats plus(AgentStats o) {
    return new AgentStats(
        tasksStarted + o.tasksStarted,
        tasksCompleted + o.tasksCompleted,
        tasksFailed + o.tasksFailed,
        tasksRefused + o.tasksRefused,
        bytesLocal + o.bytesLocal,
        bytesPeer + o.bytesPeer,
        bytesStorage + o.bytesStorage,
        peerFallbacks + o.peerFallbacks,
        sharedFetches + o.sharedFetches,
        duplicateDecisions + o.duplicateDecisions,
        staleDecisions + o.staleDecisions,
        ignoredDecisions + o.ignoredDecisions,
        filesEvictedOnRequest + o.filesEvictedOnRequest,
        evictionsRefused + o.evictionsRefused,
        replicatedBytes + o.replicatedBytes,
        running + o.running,
        cacheUsedBytes + o.cacheUsedBytes,
        cacheFiles + o.cacheFiles,
        tasksSuspended + o.tasksSuspended,
        shrinksAcknowledged + o.shrinksAcknowledged,
        eventsProcessed + o.eventsProcessed,
        duplicatesAnswered + o.duplicatesAnswered,
        foreignDecisions + o.foreignDecisions,
        absurdEpochs + o.absurdEpochs,
        resyncs + o.resyncs,
        queued + o.queued,
        tasksWithdrawn + o.tasksWithdrawn,
        outputsCached + o.outputsCached,
        outputBytesCached + o.outputBytesCached,
        outputsNotCached + o.outputsNotCached,
        tasksPreempted + o.tasksPreempted);
  }

  /**
   * The counters an operator reads, on one short line: tasks, slots, reads by source and the
   * cache; the rarer counters follow only when they are not zero (a duplicate or a stale decision
   * is worth seeing, thirty zeros are not). The record's own toString, all thirty fields by name,
   * was one 600-character line.
   */
  public String line() {
    StringBuilder b = new StringBuilder();
    b.append("tasks ").append(tasksStarted).append(" started, ").append(tasksCompleted)
        .append(" completed, ").append(tasksFailed).append(" failed, ").append(tasksRefused)
        .append(" refused; ").append(running).append(" running, ").append(queued)
        .append(" queued; read ").append(ByteSize.text(bytesLocal)).append(" local, ")
        .append(ByteSize.text(bytesPeer)).append(" peer, ").append(ByteSize.text(bytesStorage))
        .append(" storage; cache ").append(ByteSize.text(cacheUsedBytes)).append(" in ")
        .append(cacheFiles).append(cacheFiles == 1 ? " file" : " files");
    java.util.List<String> rare = new java.util.ArrayList<>();
    rare(rare, peerFallbacks, "peer fallbacks");
    rare(rare, sharedFetches, "shared fetches");
    rare(rare, duplicateDecisions, "duplicate decisions");
    rare(rare, staleDecisions, "stale decisions");
    rare(rare, ignoredDecisions, "ignored decisions");
    rare(rare, foreignDecisions, "foreign decisions");
    rare(rare, absurdEpochs, "absurd epochs");
    rare(rare, duplicatesAnswered, "duplicates answered");
    rare(rare, resyncs, "resyncs");
    rare(rare, filesEvictedOnRequest, "evicted on request");
    rare(rare, evictionsRefused, "evictions refused");
    if (replicatedBytes > 0) {
      rare.add(ByteSize.text(replicatedBytes) + " replicated");
    }
    rare(rare, tasksSuspended, "suspended");
    rare(rare, shrinksAcknowledged, "shrinks");
    rare(rare, eventsProcessed, "events processed");
    rare(rare, tasksWithdrawn, "withdrawn");
    rare(rare, tasksPreempted, "preempted");
    if (outputsCached > 0) {
      rare.add(outputsCached + " outputs cached (" + ByteSize.text(outputBytesCached) + ")");
    }
    rare(rare, outputsNotCached, "outputs not cached");
    if (!rare.isEmpty()) {
      b.append("; ").append(String.join(", ", rare));
    }
    return b.toString();
  }

  private static void rare(java.util.List<String> out, long n, String what) {
    if (n != 0) {
      out.add(n + " " + what);
    }
  }

  /** Input bytes of all sources. */
  public long bytesTotal() {
    return bytesLocal + bytesPeer + bytesStorage;
  }
}
