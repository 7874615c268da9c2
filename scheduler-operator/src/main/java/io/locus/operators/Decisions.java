package io.locus.operators;

import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.state.PoolMeta;

/**
 * The one place a {@link Decision} is built. Every decision carries the pool, the scheduler epoch
 * (agents refuse older epochs) and the pool clock of the input that caused it. A placement's id
 * names its task and attempt ({@code pool/task/attempt}); any other decision's id comes from the
 * pool's decision sequence kept in state ({@code pool/kind/seq}), so a replay gives the same ids.
 */
public final class Decisions {
  private Decisions() {}

  /** A placement; its id is {@code pool/task/attempt} (see {@link #placementId}). */
  public static Decision placement(String pool, PoolMeta meta, String node, PlaceTask place) {
    return build(pool, meta, placementId(pool, place.getTaskId(), place.getAttempt()), node,
        place);
  }

  /** A non-placement decision ({@code kind}: evict, replicate, shrink, suspend). */
  public static Decision sequenced(String pool, PoolMeta meta, String kind, String node,
      Object action) {
    long seq = meta.getDecisionSeq() + 1;
    meta.setDecisionSeq(seq);
    return build(pool, meta, pool + "/" + kind + "/" + seq, node, action);
  }

  /**
   * Asks a node the pool does not know (or no longer knows) to cancel what it runs for the pool
   * and register again with a full cache snapshot; id {@code pool/resync/seq}. Addressed to the
   * agent instance that spoke ({@code instanceId}, null: any instance of the node).
   */
  public static Decision resync(String pool, PoolMeta meta, String node, String instanceId,
      String reason) {
    Decision d = sequenced(pool, meta, "resync", node, new ResyncNode(reason));
    d.setInstanceId(instanceId);
    return d;
  }

  /** The id of the decision that placed an attempt of a task (the core's own format). */
  public static String placementId(String pool, String taskId, int attempt) {
    return io.locus.core.policy.Dispatch.decisionId(pool, taskId, attempt);
  }

  private static Decision build(String pool, PoolMeta meta, String id, String node,
      Object action) {
    return Decision.newBuilder()
        .setDecisionId(id)
        .setEpoch(meta.getEpoch())
        .setPool(pool)
        .setNode(node)
        .setTimeMs(meta.getClockMs())
        .setAction(action)
        .setInstanceId(null) // DecisionStamp sets both: given here, the builder copies no default
        .setSignature(null)
        .build();
  }
}
