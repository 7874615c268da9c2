package io.locus.agent;

/**
 * An event-range task being processed (a subjob [start, end) of a dataset, spec
 * cern-job-splitting §1.3), as its executor sees it. The agent calls these with its own lock held;
 * an implementation must answer at once and must not call back into the agent from them.
 *
 * <p>The unit of work is an event for the simulated executor and a batch of events (one process)
 * for the real one; "the unit in progress" below is that.
 */
public interface RangeRun {
  /**
   * Asks the run to stop at {@code newEnd} without losing work. The run keeps going up to the end
   * returned, which is {@code min(current end, max(newEnd, end of the unit in progress))}: at least
   * {@code newEnd} unless that lies beyond the current end (then nothing changes). A run that has
   * already ended answers its final end.
   *
   * @return the acknowledged end; {@code done} later reports it as the processed end
   */
  long shrink(long newEnd);

  /**
   * Stops now; the unit in progress is lost.
   *
   * @return {@code stopped} with the first unprocessed event; or, when the run had already
   *     processed its whole range (its completion is on its way to the agent), not {@code stopped}
   *     with its end
   */
  Stop suspend();

  /**
   * @param stopAt the first event not processed
   * @param stopped false when the run had already finished every event (done follows or came)
   */
  record Stop(long stopAt, boolean stopped) {}
}
