package io.locus.core.share;

import java.util.List;

/**
 * The attempts to preempt and the queue each one frees a slot for, in the order chosen, with the
 * grace period the agent gives each process (a polite stop, then a kill) before it reports
 * PREEMPTED. Empty when no queue is below its guarantee with pending work, or free slots cover it,
 * or no attempt may be taken without pushing its own queue below its guarantee.
 */
public record PreemptionPlan(List<Victim> victims, double graceSeconds) {
  public PreemptionPlan {
    victims = List.copyOf(victims);
  }

  /** One attempt to stop, and the queue below its guarantee that gets its slot. */
  public record Victim(RunningAttempt attempt, String forQueue) {}

  public boolean isEmpty() {
    return victims.isEmpty();
  }
}
