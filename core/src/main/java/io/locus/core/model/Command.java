package io.locus.core.model;

import java.util.List;

/** What a policy asks the driver to do. The Flink job turns these into Decision records. */
public sealed interface Command {
  /**
   * RUN(node, task): the task's slot is already taken in the pool state when this is emitted.
   * {@code plannedCompletion} is the completion time the policy planned (Khanna Gantt policies:
   * the job's ECT); NaN when the policy plans none (data diffusion, JDPDLL).
   */
  record Run(String node, Task task, List<InputFetch> inputs, Reason reason,
      double plannedCompletion) implements Command {
    public Run(String node, Task task, List<InputFetch> inputs, Reason reason) {
      this(node, task, inputs, reason, Double.NaN);
    }

    public boolean hasPlannedCompletion() {
      return !Double.isNaN(plannedCompletion);
    }
  }

  record Evict(String node, List<String> files, String reason) implements Command {}

  record Replicate(String node, InputFile unit, InputSource source, String peer, String reason)
      implements Command {}

  record Cancel(String node, String taskId, int attempt, String reason) implements Command {}

  /**
   * Withdraw (late binding): take the attempt out of {@code node}'s local queue if it has not
   * started, because {@code forNode} has a free slot that is at least as good for it. The driver
   * sends a CancelTask with onlyIfQueued; the node answers WITHDRAWN or REFUSED.
   */
  record Withdraw(String node, String taskId, int attempt, String forNode, String reason)
      implements Command {}

  /**
   * Preemption (issue 24): stop the running attempt on {@code node} so that its slot goes to
   * {@code forQueue}, a queue below its guarantee. The driver sends a CancelTask with preempt and
   * the grace period; the node stops the process (SIGTERM, SIGKILL after {@code graceSeconds})
   * and answers PREEMPTED, and the task goes back to its queue, not as a failure ({@link
   * io.locus.core.state.PoolState#preempted}). The attempt is marked preempting in the pool
   * state when this is emitted, so it is never planned twice.
   */
  record Preempt(String node, String taskId, int attempt, String forQueue, double graceSeconds,
      String reason) implements Command {}

  /** Provisioning: ask for n more nodes. */
  record Acquire(int nodes, String reason) implements Command {}

  /** Provisioning: give a node back. */
  record Release(String node, String reason) implements Command {}
}
