package io.locus.operators;

import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.auth.PlacementProof;
import io.locus.schemas.auth.RecordSigner;

/**
 * The last step before a decision leaves the scheduler, the one place it happens: it is addressed
 * to the agent instance that owns its node ({@code instanceId}; null: any instance); a placement
 * gets its proof of placement ({@link PlacementProof}) when the scheduler has a cluster node
 * secret, whatever pool family made it; and, when the scheduler has a decision secret, the whole
 * decision is signed ({@link RecordSigner}) after every other field is set.
 */
final class DecisionStamp {
  private final RecordSigner signer;
  private final PlacementProof proofs;

  /**
   * {@code secret}: the decision secret, or null to emit unsigned decisions; {@code nodeSecret}:
   * the cluster node secret, or null to emit placements without proof.
   */
  DecisionStamp(byte[] secret, byte[] nodeSecret) {
    this.signer = secret == null ? null : new RecordSigner(secret);
    this.proofs = nodeSecret == null ? null : new PlacementProof(nodeSecret);
  }

  /**
   * The decision to emit. A decision already addressed to an instance (a ResyncNode answers the
   * instance that spoke) keeps it; any other gets {@code owner}, the node's registered instance.
   */
  Decision stamp(Decision d, String owner) {
    if (d.getInstanceId() == null) {
      d.setInstanceId(owner);
    }
    if (proofs != null && d.getAction() instanceof PlaceTask p) {
      // The proof names the decision's node: only that node can report on this attempt.
      p.setProof(proofs.proof(d.getDecisionId(), d.getNode(), p.getTaskId(), p.getAttempt()));
    }
    return signer == null ? d : signer.sign(d);
  }

  boolean signs() {
    return signer != null;
  }
}
