package io.locus.agent;

import io.locus.schemas.PlaceTask;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;

/** The attempt of a task a decision names: what a task event about it repeats. */
record TaskAttempt(String taskId, String jobId, int attempt) {
  static TaskAttempt of(PlaceTask p) {
    return new TaskAttempt(p.getTaskId(), p.getJobId(), p.getAttempt());
  }

  static TaskAttempt of(ShrinkTask s) {
    return new TaskAttempt(s.getTaskId(), s.getJobId(), s.getAttempt());
  }

  static TaskAttempt of(SuspendTask s) {
    return new TaskAttempt(s.getTaskId(), s.getJobId(), s.getAttempt());
  }

  /** "taskId#attempt", as {@link NodeAgent#taskKey} names it. */
  String key() {
    return NodeAgent.taskKey(taskId, attempt);
  }
}
