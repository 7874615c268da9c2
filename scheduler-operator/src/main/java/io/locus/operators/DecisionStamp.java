package io.locus.operators;

import io.locus.schemas.Decision;
import io.locus.schemas.auth.RecordSigner;

/**
 * The last step before a decision leaves the scheduler, the one place it happens: it is addressed
 * to the agent instance that owns its node ({@code instanceId}; null: any instance) and, when the
 * scheduler has a decision secret, signed ({@link RecordSigner}) after every other field is set.
 */
final class DecisionStamp {
  private final RecordSigner signer;

  /** {@code secret}: the decision secret, or null to emit unsigned decisions. */
  DecisionStamp(byte[] secret) {
    this.signer = secret == null ? null : new RecordSigner(secret);
  }

  /**
   * The decision to emit. A decision already addressed to an instance (a ResyncNode answers the
   * instance that spoke) keeps it; any other gets {@code owner}, the node's registered instance.
   */
  Decision stamp(Decision d, String owner) {
    if (d.getInstanceId() == null) {
      d.setInstanceId(owner);
    }
    return signer == null ? d : signer.sign(d);
  }

  boolean signs() {
    return signer != null;
  }
}
