package io.locus.agent;

import io.locus.schemas.FetchSource;

/**
 * One read of one input file into this node, from the source the agent chose (its cache, a named
 * peer, or persistent storage).
 *
 * @param node the reading node
 * @param fileId the logical file name
 * @param bytes its size
 * @param source where to read from
 * @param peerNode the holder to read from when {@code source} is PEER, else null
 * @param location the storage location from the plan (may be null in simulated mode)
 * @param checksum the expected checksum from the plan, or null
 */
public record Fetch(String node, String fileId, long bytes, FetchSource source, String peerNode,
    String location, String checksum) {

  /** How a fetch ended. */
  public enum Outcome {
    /** The bytes are here. */
    DONE,
    /** The source does not have the file (a stale peer hint, a vanished cache file): try elsewhere. */
    NOT_FOUND,
    /** The read failed for another reason; the task fails. */
    FAILED
  }
}
