package io.locus.agent;

import io.locus.schemas.FetchSource;

/**
 * A request to stage one input file into this node: one read, from the source the agent chose
 * (its cache, a named peer, or persistent storage). Named apart from the simulator's
 * {@code io.locus.sim.exec.Fetch}, which models a transfer's bandwidth share.
 *
 * @param node the reading node
 * @param fileId the logical file name
 * @param bytes its size
 * @param source where to read from
 * @param peerNode the holder to read from when {@code source} is PEER, else null
 * @param location the storage location from the plan (may be null in simulated mode)
 * @param checksum the expected checksum from the plan, or null
 */
public record StageRequest(String node, String fileId, long bytes, FetchSource source,
    String peerNode, String location, String checksum) {

  /** How a read ended. */
  public enum Outcome {
    /** The bytes are here. */
    DONE,
    /** The source does not have the file (a stale peer hint, a vanished cache file): try elsewhere. */
    NOT_FOUND,
    /** The read failed for another reason; the task fails. */
    FAILED
  }
}
