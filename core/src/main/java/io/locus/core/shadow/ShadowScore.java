package io.locus.core.shadow;

/**
 * A shadow's running score since it started: what its decisions would have given in the model.
 *
 * @param placed placements it made
 * @param completed of those, the ones whose predicted end has passed
 * @param meanResponseSeconds mean of (predicted end − submission) over the completed ones; NaN
 *     before the first
 * @param bytesToMove bytes its placements read from peers and storage
 * @param bytesLocal bytes its placements read from the node's own cache
 * @param utilisation busy slot-seconds over registered slot-seconds since it started (0..1)
 * @param queueLength tasks it holds unplaced now
 */
public record ShadowScore(String policy, long placed, long completed, double meanResponseSeconds,
    long bytesToMove, long bytesLocal, double utilisation, int queueLength) {}
