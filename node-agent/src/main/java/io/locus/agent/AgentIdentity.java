package io.locus.agent;

import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.limits.Limits;
import java.util.Objects;
import java.util.UUID;

/**
 * Who an agent is beyond its node id (PROTOCOL-12, "Identities and authentication").
 *
 * @param instanceId this agent installation (real: kept in its work directory) or process
 *     (simulated: random per start): carried by every task event and node report, so the scheduler
 *     tells two agents claiming one node id apart; a decision addressed to another instance is
 *     refused
 * @param epochs where the highest scheduler epoch per pool is kept across restarts
 * @param nodeSigner signs every task event and node report with this node's key; null: unsigned
 */
public record AgentIdentity(String instanceId, EpochStore epochs, RecordSigner nodeSigner) {
  /** Longest instance id the scheduler accepts: an id ({@link Limits#MAX_ID_CHARS}). */
  public static final int MAX_INSTANCE_ID = Limits.MAX_ID_CHARS;

  public AgentIdentity {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(epochs, "epochs");
    if (instanceId.isBlank() || instanceId.length() > MAX_INSTANCE_ID) {
      throw new IllegalArgumentException("an instance id has 1 to " + MAX_INSTANCE_ID
          + " characters, got " + instanceId.length());
    }
  }

  /** A new random instance id. */
  public static String newInstanceId() {
    return UUID.randomUUID().toString();
  }

  /** A fresh identity: random instance id, epochs in memory, unsigned output. */
  public static AgentIdentity random() {
    return new AgentIdentity(newInstanceId(), EpochStore.inMemory(), null);
  }

  /** This identity with {@code id} as its instance id. */
  public AgentIdentity withInstanceId(String id) {
    return new AgentIdentity(id, epochs, nodeSigner);
  }
}
