package io.locus.agent;

/**
 * What the parts of one agent share: its settings and clock, its lifecycle, its counters, its cache
 * and the writers of its events and reports. Created by {@link NodeAgent}; every part acts under
 * {@link #monitor} (the agent itself), on whatever thread calls, so the agent's state is race-free
 * and its outputs are emitted in order.
 */
final class AgentContext {
  enum State { NEW, STARTED, CLOSED }

  final Object monitor;
  final AgentConfig config;
  final AgentScheduler clock;
  final AgentCounters counters = new AgentCounters();
  final AgentCache cache;
  final NodeReporter reports;
  final TaskEventWriter events;
  final AgentIdentity identity;
  State state = State.NEW;
  /** No new placements; reports say so (see {@link NodeAgent#drain()}). */
  boolean draining;

  AgentContext(Object monitor, AgentConfig config, AgentScheduler clock, AgentOutput output,
      String endpoint, CacheStore store, AgentIdentity identity) {
    this.monitor = monitor;
    this.config = config;
    this.clock = clock;
    this.identity = identity;
    this.cache = new AgentCache(config, store);
    // Every record leaves through the stamp: instance id, and the node's signature when keyed.
    AgentOutput stamped = new StampedOutput(output, identity);
    this.reports = new NodeReporter(config, clock, stamped, endpoint, () -> draining,
        identity.instanceId());
    this.events = new TaskEventWriter(config, clock, stamped, counters, identity.instanceId());
  }

  String nodeId() {
    return config.nodeId();
  }

  /** Whether the agent is started and not closed: only then do steps act. */
  boolean live() {
    return state == State.STARTED;
  }

  /** Runs {@code action} under the agent's monitor: how a stager's or executor's callback enters. */
  void locked(Runnable action) {
    synchronized (monitor) {
      action.run();
    }
  }
}
