package io.locus.schemas.auth;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Per-node keys derived from one cluster secret: {@code key(node) = HmacSHA256(clusterSecret,
 * "locus-node-key/v1:" + node)}. The scheduler holds the cluster secret and derives any node's key
 * to verify that node's task events and reports; each agent is given only its own node's key, so a
 * compromised node can sign as itself and nobody else. Deterministic, so the key can be re-derived
 * (e.g. by {@code locus agent node-key}) without storing a table of keys.
 */
public final class NodeKeys {
  static final String CONTEXT = "locus-node-key/v1:";

  private final RecordSigner cluster;

  public NodeKeys(byte[] clusterSecret) {
    this.cluster = new RecordSigner(clusterSecret);
  }

  /** The raw key of {@code node}. */
  public byte[] key(String node) {
    Objects.requireNonNull(node, "node");
    return cluster.mac((CONTEXT + node).getBytes(StandardCharsets.UTF_8));
  }

  /** A signer with the key of {@code node}: what that node's agent signs its records with. */
  public RecordSigner signer(String node) {
    return new RecordSigner(key(node));
  }

  @Override
  public String toString() {
    return "NodeKeys[" + RecordSigner.ALGORITHM + "]";
  }
}
