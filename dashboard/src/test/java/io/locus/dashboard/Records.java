package io.locus.dashboard;

import io.locus.schemas.CachedFile;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.List;

/** The records the tests write, as the scheduler and agents write them. */
final class Records {
  private Records() {}

  static Decision place(String pool, String node, String task, long timeMs, String policy,
      long local, long peer, long storage) {
    PlacementReason reason = PlacementReason.newBuilder().setPolicy(policy)
        .setScore(local + peer + storage == 0 ? 0 : (double) local / (local + peer + storage))
        .setLocalBytes(local).setPeerBytes(peer).setStorageBytes(storage).build();
    PlaceTask p = PlaceTask.newBuilder().setTaskId(task).setJobId(task).setAttempt(0)
        .setInputs(List.of()).setReason(reason).build();
    return Decision.newBuilder().setDecisionId(pool + "/" + task + "/0").setEpoch(1).setPool(pool)
        .setNode(node).setTimeMs(timeMs).setAction(p).build();
  }

  static TaskEvent event(String pool, String node, String task, TaskEventType type, long timeMs,
      long local, long peer, long storage) {
    return TaskEvent.newBuilder().setPool(pool).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(type).setTimeMs(timeMs).setBytesLocal(local).setBytesPeer(peer)
        .setBytesStorage(storage).build();
  }

  static TaskEvent started(String pool, String node, String task, long timeMs) {
    return event(pool, node, task, TaskEventType.STARTED, timeMs, 0, 0, 0);
  }

  static TaskEvent completed(String pool, String node, String task, long timeMs, long local,
      long peer, long storage) {
    return event(pool, node, task, TaskEventType.COMPLETED, timeMs, local, peer, storage);
  }

  static NodeReport register(String pool, String node, long timeMs, int slots, long cacheBytes) {
    return NodeReport.newBuilder().setPool(pool).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(timeMs).setSlots(slots).setCacheCapacityBytes(cacheBytes).build();
  }

  /** The scheduler's verdict on a node (node-status), for instance {@code instance}. */
  static NodeStatus verdict(String pool, String node, String instance, NodeStatusType state,
      long timeMs, int slots) {
    return NodeStatus.newBuilder().setPool(pool).setNode(node).setInstanceId(instance)
        .setState(state).setReason("test").setSlots(slots).setTimeMs(timeMs).setEpoch(1).build();
  }

  static NodeReport report(String pool, String node, NodeReportType type, long timeMs) {
    return NodeReport.newBuilder().setPool(pool).setNode(node).setType(type).setTimeMs(timeMs)
        .build();
  }

  static NodeReport cacheDelta(String pool, String node, long timeMs, List<CachedFile> added,
      List<String> removed) {
    return NodeReport.newBuilder().setPool(pool).setNode(node)
        .setType(NodeReportType.CACHE_DELTA).setTimeMs(timeMs).setAdded(added)
        .setRemoved(removed).build();
  }

  static CachedFile file(String id, long bytes) {
    return CachedFile.newBuilder().setFileId(id).setBytes(bytes).build();
  }

  static SchedulerMetrics metrics(String pool, long timeMs, String policy, long queue,
      long placements) {
    return SchedulerMetrics.newBuilder().setPool(pool).setTimeMs(timeMs).setEpoch(1)
        .setPolicy(policy).setQueueLength(queue).setRunningTasks(1).setRegisteredNodes(2)
        .setTotalSlots(4).setBusySlots(1).setPlacements(placements).setCompletions(0)
        .setFailures(0).setBytesLocal(0).setBytesPeer(0).setBytesStorage(0).build();
  }

  static DeadLetter deadLetter(String code, String reason, long timeMs) {
    return DeadLetter.newBuilder().setSourceTopic("task-events").setPartition(0).setOffset(7)
        .setReason(reason).setTimeMs(timeMs).setCode(code).build();
  }
}
