package io.locus.agent;

import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.List;

/** Keeps everything an agent emits, in order. */
class RecordingOutput implements AgentOutput {
  final List<Object> all = new ArrayList<>();
  final List<TaskEvent> events = new ArrayList<>();
  final List<NodeReport> reports = new ArrayList<>();

  @Override
  public synchronized void taskEvent(TaskEvent event) {
    all.add(event);
    events.add(event);
  }

  @Override
  public synchronized void nodeReport(NodeReport report) {
    all.add(report);
    reports.add(report);
  }

  synchronized List<TaskEvent> events(TaskEventType type) {
    return events.stream().filter(e -> e.getType() == type).toList();
  }

  synchronized List<NodeReport> reports(NodeReportType type) {
    return reports.stream().filter(r -> r.getType() == type).toList();
  }

  synchronized List<TaskEvent> eventsOf(String taskId) {
    return events.stream().filter(e -> e.getTaskId().equals(taskId)).toList();
  }
}
