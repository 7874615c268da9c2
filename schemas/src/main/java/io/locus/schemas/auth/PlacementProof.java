package io.locus.schemas.auth;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Proof that the scheduler placed an attempt on a node (issue 22, "proof of placement"): {@code
 * proof = lowercase hex( HmacSHA256(placementKey, decisionId, node, taskId, attempt) )}, 64
 * characters, sent in the placement ({@code PlaceTask.proof}) and echoed by the node in every task
 * event about that attempt ({@code TaskEvent.placementProof}).
 *
 * <p><b>Who can make one.</b> {@code placementKey = HmacSHA256(clusterSecret,
 * "locus-placement-proof/v1")}, derived from the cluster node secret that only the scheduler holds.
 * An agent holds only its own node key ({@link NodeKeys}: {@code HmacSHA256(clusterSecret,
 * "locus-node-key/v1:" + node)}); no node name makes that input equal this context (it lacks the
 * {@code "locus-node-key/v1:"} prefix), so no agent holds the placement key. A node can read every
 * placement on the decisions topic, its neighbours' proofs included, but a proof names its node:
 * node B's event about A's attempt would need the proof for (decision, B, task, attempt), which the
 * scheduler makes only if it places that attempt on B.
 *
 * <p><b>What is bound.</b> The decision id ({@code pool/task/attempt}: the pool), the node, the
 * task and the attempt; not the scheduler epoch, so a placement replayed after a restore (same id,
 * new epoch) proves the same thing, and an attempt placed on two nodes across a restore gets one
 * proof per node. The message is each string as its UTF-8 length (4 bytes) and bytes, then the
 * attempt (4 bytes): no two field lists encode alike. Thread-safe.
 */
public final class PlacementProof {
  static final String CONTEXT = "locus-placement-proof/v1";
  /** Length of a proof in hex characters. */
  public static final int LENGTH = RecordSigner.LENGTH;

  private final RecordSigner key;

  /** The proofs of the cluster whose node secret is {@code clusterSecret}. */
  public PlacementProof(byte[] clusterSecret) {
    Objects.requireNonNull(clusterSecret, "clusterSecret");
    this.key = new RecordSigner(
        new RecordSigner(clusterSecret).mac(CONTEXT.getBytes(StandardCharsets.UTF_8)));
  }

  /** The proof that attempt {@code attempt} of {@code taskId} was placed on {@code node}. */
  public String proof(String decisionId, String node, String taskId, int attempt) {
    return HexFormat.of().formatHex(key.mac(message(decisionId, node, taskId, attempt)));
  }

  /**
   * True when {@code given} is the proof for these values (compared in constant time); false for
   * null or anything that is not 64 hex characters.
   */
  public boolean verify(String given, String decisionId, String node, String taskId,
      int attempt) {
    if (given == null || given.length() != LENGTH) {
      return false;
    }
    byte[] actual;
    try {
      actual = HexFormat.of().parseHex(given);
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(key.mac(message(decisionId, node, taskId, attempt)), actual);
  }

  private static byte[] message(String decisionId, String node, String taskId, int attempt) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (String s : new String[] {decisionId, node, taskId}) {
        byte[] b = Objects.requireNonNull(s, "a proof's id").getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
      }
      out.writeInt(attempt);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // never: in memory
    }
    return bytes.toByteArray();
  }

  @Override
  public String toString() {
    // Never the key.
    return "PlacementProof[" + RecordSigner.ALGORITHM + "]";
  }
}
