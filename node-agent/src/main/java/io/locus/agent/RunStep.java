package io.locus.agent;

/**
 * One scheduled step of a task run or a replication: a read, or the compute. A callback carries its
 * step; when that is no longer the current one, the callback is stale and is ignored.
 */
final class RunStep {
  Cancellable handle = Cancellable.NONE;
}
