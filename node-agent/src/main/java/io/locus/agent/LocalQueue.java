package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Late binding (issue 13, PROTOCOL-13): the placed attempts an agent holds beyond its slots, up to
 * {@link AgentConfig#queueDepth()}, so that the next task is already on the node when a slot frees
 * instead of a full round trip to the scheduler later (Falkon's pre-fetch, Sparrow's reservations).
 *
 * <ul>
 *   <li>An admitted placement starts at once when a slot is free (as without a queue), else waits
 *       here, first in first out. Nothing is emitted while it waits: STARTED is sent when the
 *       attempt really starts (staging, then execution).
 *   <li>{@link #startWhileFree()} starts queued attempts as long as a slot is free; the agent calls
 *       it whenever a run ended, whatever ended it.
 *   <li>A cancel of a queued attempt ends it as the cancel of a running one does (FAILED, exit code
 *       {@value NodeAgent#ABORTED_EXIT_CODE}); a withdraw ends it WITHDRAWN; a ResyncNode drops the
 *       queue without events (the scheduler re-queues what it placed here); the agent's close ends
 *       every queued attempt FAILED like the running ones.
 * </ul>
 * With queueDepth 0 the queue stays empty and the agent behaves exactly as before. Guarded by the
 * agent's monitor, like every part.
 */
final class LocalQueue {
  /** A placement accepted but not started yet. */
  record Queued(Decision decision, PlaceTask place, TaskAttempt attempt) {}

  private final AgentContext ctx;
  private final TaskRunner runner;
  /** By "taskId#attempt", in arrival order. */
  private final Map<String, Queued> queued = new LinkedHashMap<>();

  LocalQueue(AgentContext ctx, TaskRunner runner) {
    this.ctx = ctx;
    this.runner = runner;
  }

  /** Whether one more placement fits: running + queued &lt; slots + queueDepth. */
  boolean hasRoom() {
    return runner.count() + queued.size() < ctx.config.slots() + ctx.config.queueDepth();
  }

  /** An admitted placement ({@link #hasRoom()} was true): starts now on a free slot, else waits. */
  void admit(Decision d, PlaceTask p) {
    if (runner.count() < ctx.config.slots() && queued.isEmpty()) {
      runner.start(d, p);
      return;
    }
    TaskAttempt a = TaskAttempt.of(p);
    queued.put(a.key(), new Queued(d, p, a));
    startWhileFree();
  }

  /** Starts queued attempts, oldest first, while a slot is free and the agent is live. */
  void startWhileFree() {
    Iterator<Queued> it = queued.values().iterator();
    while (ctx.live() && it.hasNext() && runner.count() < ctx.config.slots()) {
      Queued q = it.next();
      it.remove();
      runner.start(q.decision(), q.place());
      // start() may not call back synchronously, but a fresh iterator is safe whatever it does.
      it = queued.values().iterator();
    }
  }

  Queued get(String key) {
    return queued.get(key);
  }

  int size() {
    return queued.size();
  }

  boolean isEmpty() {
    return queued.isEmpty();
  }

  Set<String> keys() {
    return new LinkedHashSet<>(queued.keySet());
  }

  /** A CancelTask of a queued attempt: removed, FAILED as a cancelled run. */
  void cancel(Queued q, String message) {
    queued.remove(q.attempt().key());
    ctx.events.endedUnstarted(q.decision(), q.attempt(), NodeAgent.ABORTED_EXIT_CODE, message);
  }

  /** A withdraw of a queued attempt: removed, WITHDRAWN with the cancel's reason. */
  void withdraw(Queued q, String reason) {
    queued.remove(q.attempt().key());
    ctx.events.withdrawn(q.decision(), q.attempt(), reason);
  }

  /** A preemption of a queued attempt: removed, PREEMPTED with the preemption's reason. */
  void preempt(Queued q, String reason) {
    queued.remove(q.attempt().key());
    ctx.events.preemptedUnstarted(q.decision(), q.attempt(), reason);
  }

  /** ResyncNode: every queued attempt is forgotten without an event. @return how many */
  int dropAll() {
    int n = queued.size();
    queued.clear();
    return n;
  }

  /** The agent stops: every queued attempt ends FAILED with {@code message}, in queue order. */
  void stopAll(String message) {
    List<Queued> all = new ArrayList<>(queued.values());
    queued.clear();
    for (Queued q : all) {
      ctx.events.endedUnstarted(q.decision(), q.attempt(), NodeAgent.ABORTED_EXIT_CODE, message);
    }
  }
}
