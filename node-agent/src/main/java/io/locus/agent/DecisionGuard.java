package io.locus.agent;

import io.locus.schemas.Decision;

/**
 * Checks a real agent applies to each decision addressed to it. The simulated mode accepts
 * everything ({@link #ACCEPT_ALL}).
 *
 * <p>{@link #verify} runs first, before deduplication and the epoch check: a forged decision must
 * leave no trace in the agent (it could otherwise poison the dedupe window with the id of a future
 * real decision, or raise the highest epoch seen and lock the real scheduler out). {@link #admit}
 * runs on an authentic, current decision, before the agent acts on it.
 *
 * <p>A refused PlaceTask is reported as a REFUSED task event whose message is
 * {@link Refusal#message()}; other actions are logged and counted (a task event would read as "the
 * placement failed").
 */
public interface DecisionGuard {
  DecisionGuard ACCEPT_ALL = new DecisionGuard() { };

  /** Authenticity (e.g. the HMAC signature); null when the decision may be looked at. */
  default Refusal verify(Decision decision) {
    return null;
  }

  /** Content (file ids, locations, templates, arguments); null when the agent may act on it. */
  default Refusal admit(Decision decision) {
    return null;
  }
}
