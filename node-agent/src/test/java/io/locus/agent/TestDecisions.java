package io.locus.agent;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import java.util.List;

/** Builders for the decisions tests hand to agents. */
public final class TestDecisions {
  public static final long MB = 1_000_000L;

  private TestDecisions() {}

  public static InputPlan storage(String file, long bytes) {
    return input(file, bytes, FetchSource.STORAGE, null, true);
  }

  public static InputPlan local(String file, long bytes) {
    return input(file, bytes, FetchSource.LOCAL, null, true);
  }

  public static InputPlan peer(String file, long bytes, String peerNode) {
    return input(file, bytes, FetchSource.PEER, peerNode, true);
  }

  public static InputPlan input(String file, long bytes, FetchSource source, String peerNode,
      boolean cache) {
    return InputPlan.newBuilder()
        .setFileId(file)
        .setBytes(bytes)
        .setSource(source)
        .setPeerNode(peerNode)
        .setLocation(source == FetchSource.STORAGE ? "gpfs://" + file : null)
        .setCache(cache)
        .build();
  }

  public static PlaceTask task(String taskId, double computeSeconds, InputPlan... inputs) {
    return PlaceTask.newBuilder()
        .setTaskId(taskId)
        .setJobId("job-" + taskId)
        .setAttempt(0)
        .setInputs(List.of(inputs))
        .setComputeSeconds(computeSeconds)
        .setReason(PlacementReason.newBuilder().setPolicy("TEST").build())
        .build();
  }

  public static Decision decision(String id, long epoch, String pool, String node, Object action) {
    return Decision.newBuilder()
        .setDecisionId(id)
        .setEpoch(epoch)
        .setPool(pool)
        .setNode(node)
        .setTimeMs(0)
        .setAction(action)
        .build();
  }

  public static EvictFiles evict(String... files) {
    return EvictFiles.newBuilder().setFiles(List.of(files)).setReason("test").build();
  }

  public static CancelTask cancel(String taskId) {
    return CancelTask.newBuilder().setTaskId(taskId).setAttempt(0).setReason("test").build();
  }

  /** A preemption of attempt 0 of {@code taskId} with that grace period. */
  public static CancelTask preempt(String taskId, long graceMs) {
    return CancelTask.newBuilder().setTaskId(taskId).setAttempt(0).setReason("queue b below its"
        + " guarantee").setPreempt(true).setGraceMs(graceMs).build();
  }

  public static ReplicateFile replicate(String file, long bytes, String peerNode) {
    return ReplicateFile.newBuilder()
        .setFileId(file)
        .setBytes(bytes)
        .setSource(peerNode == null ? FetchSource.STORAGE : FetchSource.PEER)
        .setPeerNode(peerNode)
        .build();
  }

  /** A segment of an event-range placement: [start, end) from {@code source} at that cost. */
  public static EventSegment segment(long start, long end, FetchSource source,
      double secondsPerEvent) {
    return new EventSegment(start, end, source, source == FetchSource.PEER ? "n9" : null,
        secondsPerEvent);
  }

  /** An event-range subjob of dataset "lhcb" with the given segments (none: computeSeconds). */
  public static PlaceTask rangeTask(String taskId, int attempt, long start, long end,
      double computeSeconds, EventSegment... segments) {
    return PlaceTask.newBuilder()
        .setTaskId(taskId)
        .setJobId("job-" + taskId)
        .setAttempt(attempt)
        .setInputs(List.of())
        .setComputeSeconds(computeSeconds)
        .setReason(PlacementReason.newBuilder().setPolicy("OUT_OF_ORDER").build())
        .setEvents(new EventRange("lhcb", start, end))
        .setEventSegments(List.of(segments))
        .build();
  }

  /** [start, end) at {@code secondsPerEvent}, every event from storage. */
  public static PlaceTask rangeTask(String taskId, long start, long end, double secondsPerEvent) {
    return rangeTask(taskId, 0, start, end, 0,
        segment(start, end, FetchSource.STORAGE, secondsPerEvent));
  }

  public static ShrinkTask shrink(String taskId, long newEnd) {
    return shrink(taskId, 0, newEnd);
  }

  public static ShrinkTask shrink(String taskId, int attempt, long newEnd) {
    return ShrinkTask.newBuilder().setTaskId(taskId).setJobId("job-" + taskId)
        .setAttempt(attempt).setNewEnd(newEnd).build();
  }

  public static SuspendTask suspend(String taskId) {
    return SuspendTask.newBuilder().setTaskId(taskId).setJobId("job-" + taskId).setAttempt(0)
        .build();
  }
}
