package io.locus.core.shadow;

/**
 * A shadow's would-be placement: the task would start on {@code node} at {@code start} and, in the
 * model, end at {@code predictedEnd} (pool seconds), reading these bytes from each source.
 */
public record ShadowPlacement(String policy, String taskId, String jobId, String node,
    double start, double predictedEnd, long localBytes, long peerBytes, long storageBytes) {}
