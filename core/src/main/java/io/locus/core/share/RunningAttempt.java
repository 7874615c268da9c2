package io.locus.core.share;

/**
 * A running attempt as preemption sees it: its leaf queue, priority, when it started (event time:
 * the work a preemption loses grows with it), the node it runs on, and {@code bytesOnlyHere}: bytes
 * of its inputs cached on its node and on no other (what re-running it elsewhere must fetch from
 * storage again; 0 when every input is also cached elsewhere, or nothing was cached).
 */
public record RunningAttempt(String taskId, int attempt, String queue, int priority,
    double startTime, String node, long bytesOnlyHere) {}
