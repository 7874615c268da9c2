package io.locus.agent;

import java.util.function.Consumer;

/**
 * Moves input bytes to the node. The agent decides the read path (local, hinted peer, storage) and
 * keeps the cache accounting; a stager only performs one read. The simulated stager models the time a
 * read takes; a real one (later) copies files over HTTP or from the storage mount.
 *
 * <p>Contract: {@code done} is called exactly once unless the returned handle is cancelled first, on
 * any thread, and never from inside {@code fetch} itself.
 */
public interface Stager {
  Cancellable fetch(Fetch fetch, Consumer<Fetch.Outcome> done);
}
