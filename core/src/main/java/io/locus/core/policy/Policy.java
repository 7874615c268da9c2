package io.locus.core.policy;

/**
 * A placement policy: a pure function of the pool state (and the time and seed it is given) to
 * placements. {@link #dispatch} runs after every batch of events (arrival, completion,
 * registration, cache report) and places as many queued tasks as the policy wants.
 */
public interface Policy {
  /** The paper's term, e.g. "MCH". */
  String name();

  void dispatch(Dispatch d);
}
