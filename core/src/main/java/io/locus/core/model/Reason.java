package io.locus.core.model;

/** Why a task went where it went: the deciding policy and the byte split of its inputs there. */
public record Reason(String policy, double score, long localBytes, long peerBytes, long storageBytes) {}
