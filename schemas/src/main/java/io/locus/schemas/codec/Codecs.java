package io.locus.schemas.codec;

import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;

/** One shared codec per record type that travels on a topic. */
public final class Codecs {
  public static final AvroCodec<JobSubmitted> JOB_SUBMITTED = new AvroCodec<>(JobSubmitted.class);
  public static final AvroCodec<TaskEvent> TASK_EVENT = new AvroCodec<>(TaskEvent.class);
  public static final AvroCodec<NodeReport> NODE_REPORT = new AvroCodec<>(NodeReport.class);
  public static final AvroCodec<Control> CONTROL = new AvroCodec<>(Control.class);
  public static final AvroCodec<ControlAck> CONTROL_ACK = new AvroCodec<>(ControlAck.class);
  public static final AvroCodec<io.locus.schemas.NodeStatus> NODE_STATUS =
      new AvroCodec<>(io.locus.schemas.NodeStatus.class);
  public static final AvroCodec<Decision> DECISION = new AvroCodec<>(Decision.class);
  public static final AvroCodec<SchedulerMetrics> SCHEDULER_METRICS =
      new AvroCodec<>(SchedulerMetrics.class);
  public static final AvroCodec<ScaleRequest> SCALE_REQUEST = new AvroCodec<>(ScaleRequest.class);
  public static final AvroCodec<DeadLetter> DEAD_LETTER = new AvroCodec<>(DeadLetter.class);
  public static final AvroCodec<io.locus.schemas.ShadowDecision> SHADOW_DECISION =
      new AvroCodec<>(io.locus.schemas.ShadowDecision.class);

  public static final AvroCodec<io.locus.schemas.JobCommand> JOB_COMMAND =
      new AvroCodec<>(io.locus.schemas.JobCommand.class);
  public static final AvroCodec<io.locus.schemas.JobStatus> JOB_STATUS =
      new AvroCodec<>(io.locus.schemas.JobStatus.class);
  public static final AvroCodec<io.locus.schemas.WorkflowSubmitted> WORKFLOW_SUBMITTED =
      new AvroCodec<>(io.locus.schemas.WorkflowSubmitted.class);
  public static final AvroCodec<io.locus.schemas.WorkflowStatus> WORKFLOW_STATUS =
      new AvroCodec<>(io.locus.schemas.WorkflowStatus.class);

  private Codecs() {}
}
