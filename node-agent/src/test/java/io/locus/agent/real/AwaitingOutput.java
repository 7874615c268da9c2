package io.locus.agent.real;

import static org.assertj.core.api.Assertions.fail;

import io.locus.agent.AgentOutput;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Keeps what an agent emits and lets a test wait, with a deadline, for what it expects. */
final class AwaitingOutput implements AgentOutput {
  static final Duration DEADLINE = Duration.ofSeconds(20);

  private final List<TaskEvent> events = new ArrayList<>();
  private final List<NodeReport> reports = new ArrayList<>();

  @Override
  public synchronized void taskEvent(TaskEvent event) {
    events.add(event);
    notifyAll();
  }

  @Override
  public synchronized void nodeReport(NodeReport report) {
    reports.add(report);
    notifyAll();
  }

  synchronized List<TaskEvent> events() {
    return List.copyOf(events);
  }

  synchronized List<NodeReport> reports() {
    return List.copyOf(reports);
  }

  synchronized List<NodeReport> reports(NodeReportType type) {
    return reports.stream().filter(r -> r.getType() == type).toList();
  }

  synchronized List<TaskEvent> eventsOf(String taskId) {
    return events.stream().filter(e -> e.getTaskId().equals(taskId)).toList();
  }

  synchronized List<TaskEvent> events(TaskEventType type) {
    return events.stream().filter(e -> e.getType() == type).toList();
  }

  // Not Await: these wake on notifyAll when the agent emits (no polling interval).
  /** The first event matching, waiting for it up to the deadline. */
  synchronized TaskEvent awaitEvent(String what, Predicate<TaskEvent> p) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      for (TaskEvent e : events) {
        if (p.test(e)) {
          return e;
        }
      }
      waitUntil(end, what);
    }
  }

  synchronized NodeReport awaitReport(String what, Predicate<NodeReport> p) {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      for (NodeReport r : reports) {
        if (p.test(r)) {
          return r;
        }
      }
      waitUntil(end, what);
    }
  }

  /** The task's final event: COMPLETED, FAILED, REFUSED or SUSPENDED (not STARTED, SHRUNK). */
  TaskEvent awaitEnd(String taskId) {
    return awaitEvent("the end of " + taskId, e -> e.getTaskId().equals(taskId)
        && e.getType() != TaskEventType.STARTED && e.getType() != TaskEventType.SHRUNK);
  }

  private void waitUntil(long end, String what) {
    long left = end - System.nanoTime();
    if (left <= 0) {
      fail("timed out waiting for " + what + "; events " + events + "; reports " + reports);
    }
    try {
      wait(Math.max(1, left / 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("interrupted waiting for " + what);
    }
  }
}
