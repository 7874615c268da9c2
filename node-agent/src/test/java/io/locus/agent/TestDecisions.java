package io.locus.agent;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.ReplicateFile;
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

  public static ReplicateFile replicate(String file, long bytes, String peerNode) {
    return ReplicateFile.newBuilder()
        .setFileId(file)
        .setBytes(bytes)
        .setSource(peerNode == null ? FetchSource.STORAGE : FetchSource.PEER)
        .setPeerNode(peerNode)
        .build();
  }
}
