package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.QueueConfig;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool's queue tree through the scheduler operator in Flink's harness on RocksDB (issue 24):
 * SET_QUEUES applied whole (the ack lists the changes), unchanged, or refused whole with every
 * reason (nothing of it applied); a job naming a queue that is not a leaf of the tree is a dead
 * letter {@code unknown-queue} and FAILED; job status names the job's queue; a queue an unfinished
 * job names cannot be removed; and all of it survives a snapshot and restore.
 */
@Timeout(60)
class QueueControlOperatorTest {
  private static final String POOL = "p";
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void open(OperatorSubtaskState from) throws Exception {
    harness = OperatorHarness.open(SchedulerConfig.defaults("FA"), from);
    harness.setProcessingTime(0);
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private <T> List<T> side(OutputTag<T> tag) {
    List<T> out = new ArrayList<>();
    var q = harness.getSideOutput(tag);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private List<String> placed() {
    List<String> out = new ArrayList<>();
    for (Decision d : harness.extractOutputValues()) {
      if (d.getAction() instanceof PlaceTask p) {
        out.add(p.getTaskId());
      }
    }
    harness.getOutput().clear();
    return out;
  }

  static QueueConfig queue(String name, String parent, double weight, int guaranteed,
      Integer limit) {
    return QueueConfig.newBuilder().setName(name).setParent(parent).setWeight(weight)
        .setGuaranteedSlots(guaranteed).setLimitSlots(limit).build();
  }

  private static Control setQueues(String requestId, long t, QueueConfig... queues) {
    return Control.newBuilder().setPool(POOL).setType(ControlType.SET_QUEUES).setTimeMs(t)
        .setRequestId(requestId).setQueues(List.of(queues)).build();
  }

  private static JobSubmitted job(String id, String queue, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(1000).build()))
        .setComputeSeconds(1.0).setQueue(queue).build();
  }

  private static NodeReport register(String node, int slots, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setCacheCapacityBytes(1_000_000).setSeq(1).build();
  }

  private static TaskEvent completed(String task, String node, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(TaskEventType.COMPLETED).setTimeMs(t)
        .setDecisionId(POOL + "/" + task + "/0").build();
  }

  private ControlAck onlyAck() {
    List<ControlAck> acks = side(SchedulerOperator.CONTROL_ACKS);
    assertThat(acks).hasSize(1);
    return acks.get(0);
  }

  private static final QueueConfig ENG = queue("eng", null, 2, 2, 6);
  private static final QueueConfig ML = queue("ml", "eng", 1, 1, 6);
  private static final QueueConfig WEB = queue("web", "eng", 1, 1, 4);

  @Test
  void aTreeIsAppliedUnchangedOrRefusedWholeWithEveryReason() throws Exception {
    open(null);
    send(setQueues("r-1", 1, ENG, ML, WEB), 1);
    ControlAck applied = onlyAck();
    assertThat(applied.getAccepted()).isTrue();
    assertThat(applied.getType()).isEqualTo(ControlType.SET_QUEUES);
    assertThat(applied.getRequestId()).isEqualTo("r-1");
    assertThat(applied.getChanges()).containsExactly(
        "+ queue 'eng' (parent -, weight 2, guaranteed 2, limit 6)",
        "+ queue 'ml' (parent eng, weight 1, guaranteed 1, limit 6)",
        "+ queue 'web' (parent eng, weight 1, guaranteed 1, limit 4)");
    assertThat(applied.getReasons()).isEmpty();

    send(setQueues("r-2", 2, ENG, ML, WEB), 2);
    ControlAck same = onlyAck();
    assertThat(same.getAccepted()).isTrue();
    assertThat(same.getChanges()).isEmpty();
    assertThat(same.getMessage()).isEqualTo("queue tree unchanged");

    // a cycle, a guarantee above its limit and a negative weight: all three said, nothing applied
    send(setQueues("r-3", 3, ENG, queue("a", "b", 1, 0, null), queue("b", "a", 1, 0, null),
        queue("web", "eng", 1, 5, 4), queue("ml", "eng", -1, 0, 6)), 3);
    ControlAck refused = onlyAck();
    assertThat(refused.getAccepted()).isFalse();
    assertThat(refused.getChanges()).isEmpty();
    assertThat(refused.getReasons()).anyMatch(r -> r.contains("cycle"))
        .anyMatch(r -> r.contains("guarantee 5 is above its limit 4"))
        .anyMatch(r -> r.contains("weight must be a finite number > 0, got -1"));
    assertThat(refused.getMessage()).startsWith("queue configuration refused, nothing applied");
    assertThat(side(SchedulerOperator.REJECTED)).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.REJECTED);

    // the tree in force is still the first one: ml takes jobs, a is unknown
    send(job("j-ml", "ml", 4), 4);
    send(job("j-a", "a", 5), 5);
    assertThat(side(SchedulerOperator.REJECTED)).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_QUEUE);
  }

  @Test
  void aJobNamingAQueueThePoolLacksIsADeadLetterAndFailedNamingTheQueue() throws Exception {
    open(null);
    send(register("n1", 2, 1), 1);
    // no tree yet: the default queue alone, named or not
    send(job("j-none", null, 2), 2);
    send(job("j-default", "default", 3), 3);
    send(job("j-eng", "eng", 4), 4);
    assertThat(placed()).containsExactly("j-none", "j-default");
    List<DeadLetter> dead = side(SchedulerOperator.REJECTED);
    assertThat(dead).hasSize(1);
    assertThat(dead.get(0).getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_QUEUE);
    assertThat(dead.get(0).getReason()).isEqualTo(
        "unknown queue 'eng' (this pool's queues: default)");
    JobStatus failed = side(SchedulerOperator.JOB_STATUS).stream()
        .filter(s -> s.getJobId().equals("j-eng")).findFirst().orElseThrow();
    assertThat(failed.getState()).isEqualTo(JobState.FAILED);
    assertThat(failed.getQueue()).isEqualTo("eng");
    assertThat(failed.getReason()).contains("unknown-queue").contains("unknown queue 'eng'");

    send(setQueues("r-1", 5, ENG, ML), 5);
    assertThat(onlyAck().getAccepted()).isTrue();
    send(job("j-eng", "eng", 6), 6); // the same id again, now naming a parent queue
    assertThat(side(SchedulerOperator.REJECTED)).extracting(DeadLetter::getReason)
        .containsExactly("queue 'eng' has child queues; a job runs in one of them: ml");
    send(job("j-ml", "ml", 7), 7);
    assertThat(side(SchedulerOperator.REJECTED)).isEmpty();
    assertThat(side(SchedulerOperator.JOB_STATUS)).filteredOn(s -> s.getJobId().equals("j-ml"))
        .extracting(JobStatus::getQueue).isNotEmpty().containsOnly("ml");
  }

  @Test
  void theTreeAndTheQueuesOfUnfinishedJobsSurviveARestore() throws Exception {
    open(null);
    send(register("n1", 1, 1), 1);
    send(setQueues("r-1", 2, ENG, ML, WEB), 2);
    assertThat(onlyAck().getAccepted()).isTrue();
    send(job("j-ml", "ml", 3), 3);
    send(job("j-web", "web", 4), 4); // queued behind j-ml: one slot
    assertThat(placed()).containsExactly("j-ml");
    side(SchedulerOperator.JOB_STATUS);

    OperatorSubtaskState snap = harness.snapshot(1, 5);
    harness.close();
    open(snap);

    // the tree came back: web is still known, x still unknown
    send(job("j-x", "x", 6), 6);
    assertThat(side(SchedulerOperator.REJECTED)).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_QUEUE);
    // removing ml and web is refused while their jobs are unfinished, with both reasons
    send(setQueues("r-2", 7, ENG), 7);
    ControlAck refused = onlyAck();
    assertThat(refused.getAccepted()).isFalse();
    assertThat(refused.getReasons()).containsExactly(
        "queue 'ml' has 1 unfinished job(s) and the new configuration removes it",
        "queue 'web' has 1 unfinished job(s) and the new configuration removes it");
    side(SchedulerOperator.REJECTED);

    // j-ml completes (its final status names its queue); j-web is placed; removing ml applies
    send(completed("j-ml", "n1", 8), 8);
    assertThat(placed()).containsExactly("j-web");
    List<JobStatus> statuses = side(SchedulerOperator.JOB_STATUS);
    assertThat(statuses).filteredOn(s -> s.getJobId().equals("j-ml")
        && s.getState() == JobState.COMPLETED).extracting(JobStatus::getQueue)
        .containsExactly("ml");
    assertThat(statuses).filteredOn(s -> s.getJobId().equals("j-web"))
        .extracting(JobStatus::getQueue).isNotEmpty().containsOnly("web");
    send(setQueues("r-3", 9, ENG, WEB), 9);
    ControlAck applied = onlyAck();
    assertThat(applied.getAccepted()).as("%s", applied.getReasons()).isTrue();
    assertThat(applied.getChanges()).containsExactly("- queue 'ml'");

    // the metrics record shows the tree in force
    harness.setProcessingTime(SchedulerConfig.defaults("FA").metricsIntervalMs() * 2);
    List<SchedulerMetrics> m = side(SchedulerOperator.METRICS);
    assertThat(m).isNotEmpty();
    assertThat(m.get(m.size() - 1).getQueues()).containsExactly(ENG, WEB);
  }
}
