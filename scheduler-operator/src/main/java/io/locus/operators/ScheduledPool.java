package io.locus.operators;

import io.locus.core.state.PoolState;
import io.locus.schemas.state.PoolMeta;

/**
 * One pool's heap state in {@link SchedulerOperator}: its scalars, its node registrations (and,
 * for file policies, queue), the driver of its policy family (SET_POLICY may replace it) and what
 * the {@link InputGate} keeps: the node registry and the job ledger. Rebuilt from keyed state on
 * first use after a (re)start.
 */
final class ScheduledPool {
  final String name;
  final PoolMeta meta;
  final PoolState state;
  PoolDriver driver;
  final NodeRegistry registry;
  final JobLedger ledger;
  /** The pool's queue tree and the queues of its unfinished jobs (keyed state, heap-cached). */
  final PoolQueues queues;
  /** The pool's shadow policies, or null (none configured, or a split pool). Heap only. */
  PoolShadows shadows;
  /**
   * Whether the gate warned that jobs queue in this pool with no node registered (once until a
   * job arrives with a node there). Heap only: a restart may warn again.
   */
  boolean warnedNoNodes;

  ScheduledPool(String name, PoolMeta meta, PoolState state, PoolDriver driver,
      NodeRegistry registry, JobLedger ledger, PoolQueues queues) {
    this.name = name;
    this.meta = meta;
    this.state = state;
    this.driver = driver;
    this.registry = registry;
    this.ledger = ledger;
    this.queues = queues;
  }

  /** Whether the pool is paused (PAUSE_POOL; persisted in {@link PoolMeta}). */
  boolean paused() {
    return meta.getPaused();
  }
}
