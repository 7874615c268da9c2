package io.locus.core.policy;

/**
 * A policy's answer to "why is this queued task not on the free node over there": it holds the
 * task for {@code node}, a node that holds (or was chosen for) its data, until {@code until}
 * (policy seconds; NaN when the policy sets no deadline and no forecast exists), and going now
 * would move {@code bytesSaved} more bytes (−1 when the policy does not price it per task).
 * {@code rule} names the policy rule in a few words ("MCH best holder", "mapped for good").
 */
public record DataWait(String node, double until, long bytesSaved, String rule) {}
