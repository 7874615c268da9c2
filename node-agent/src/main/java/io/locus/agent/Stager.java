package io.locus.agent;

import java.util.function.Consumer;

/**
 * Moves input bytes to the node. The agent decides the read path (local, hinted peer, storage) and
 * keeps the cache accounting; a stager only performs one read. The simulated stager models the time a
 * read takes; the real one ({@code io.locus.agent.real.RealStager}) copies files from the storage
 * mount, over HTTP, or from a peer agent.
 *
 * <p>Contract: {@code done} is called exactly once unless the returned handle is cancelled first, on
 * any thread, and never from inside {@code fetch} itself.
 */
public interface Stager {
  Cancellable fetch(StageRequest fetch, Consumer<StageRequest.Outcome> done);

  /**
   * Why {@code fetch} ended FAILED (checksum mismatch, HTTP status...), for the task event; asked
   * once, right after the FAILED outcome. Null when there is nothing to add.
   */
  default String failureReason(StageRequest fetch) {
    return null;
  }
}
