package io.locus.connectors;

import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.List;

/** Valid input events; tests break one field at a time. */
public final class Fixtures {
  private Fixtures() {}

  public static DataUnit unit(String id, long bytes) {
    return DataUnit.newBuilder().setId(id).setBytes(bytes).build();
  }

  public static JobSubmitted.Builder job(String pool, String jobId) {
    return JobSubmitted.newBuilder()
        .setJobId(jobId)
        .setPool(pool)
        .setSubmitTimeMs(1_000L)
        .setInputs(List.of(unit("data/part-0", 100), unit("data/part-1", 200)));
  }

  public static TaskEvent.Builder taskEvent(String pool) {
    return TaskEvent.newBuilder()
        .setPool(pool)
        .setTaskId("t-1")
        .setJobId("j-1")
        .setAttempt(0)
        .setNode("n-1")
        .setType(TaskEventType.COMPLETED)
        .setTimeMs(2_000L)
        .setBytesLocal(10)
        .setBytesPeer(20)
        .setBytesStorage(30);
  }

  public static NodeReport.Builder register(String pool, String node) {
    return NodeReport.newBuilder()
        .setPool(pool)
        .setNode(node)
        .setType(NodeReportType.REGISTER)
        .setTimeMs(3_000L)
        .setSlots(4)
        .setCacheCapacityBytes(1L << 30);
  }

  public static NodeReport.Builder delta(String pool, String node) {
    return NodeReport.newBuilder()
        .setPool(pool)
        .setNode(node)
        .setType(NodeReportType.CACHE_DELTA)
        .setTimeMs(3_000L)
        .setSeq(1)
        .setAdded(List.of(new CachedFile("data/part-0", 100L)))
        .setRemoved(List.of("data/old"));
  }

  public static Control.Builder control(String pool, ControlType type) {
    return Control.newBuilder().setPool(pool).setType(type).setTimeMs(4_000L);
  }

  /** A trivial decision placing a job's single task on a fixed node. */
  public static Decision decisionFor(JobSubmitted job, String node) {
    PlaceTask place = PlaceTask.newBuilder()
        .setTaskId(job.getJobId() + "/0")
        .setJobId(job.getJobId())
        .setAttempt(0)
        .setInputs(List.of())
        .setReason(PlacementReason.newBuilder().setPolicy("test").build())
        .build();
    return Decision.newBuilder()
        .setDecisionId("d-" + job.getJobId())
        .setEpoch(1)
        .setPool(job.getPool())
        .setNode(node)
        .setTimeMs(job.getSubmitTimeMs())
        .setAction(place)
        .build();
  }
}
