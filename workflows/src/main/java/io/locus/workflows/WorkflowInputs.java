package io.locus.workflows;

import io.locus.connectors.functions.ParseAndValidate;
import io.locus.connectors.functions.Validation;
import io.locus.connectors.functions.Violation;
import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.codec.SchemaException;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.limits.Limits;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The runner's inputs, before keying: records of {@code workflows} and {@code job-status}, each
 * passed on with its key replaced by the workflow id it belongs to ({@link #workflowId}), which
 * is what the runner is keyed by. A job-status record of a job outside any workflow (most of
 * them) stops here. A part that cannot be decoded, is too large or names no usable workflow id
 * goes to {@link #DEAD_LETTERS} with its coordinates: it has no workflow whose state could refuse
 * it. Decoding is repeated in the runner (the record stays raw across the network so its dead
 * letter can carry the bytes); only workflow records pay it twice.
 */
public class WorkflowInputs extends ProcessFunction<RawRecord, RawRecord> {
  private static final long serialVersionUID = 1L;

  public static final OutputTag<DeadLetter> DEAD_LETTERS =
      new OutputTag<>("workflow-input-dead-letters", LocusTypes.DEAD_LETTER);

  @Override
  public void processElement(RawRecord raw, Context ctx, Collector<RawRecord> out) {
    String topic = raw.getTopic();
    ByteBuffer value = raw.getValue();
    if (value == null || value.remaining() == 0) {
      dead(raw, ctx, DeadLetterCodes.CORRUPT, "empty value on " + topic);
      return;
    }
    if (value.remaining() > Limits.MAX_RECORD_BYTES) {
      dead(raw, ctx, DeadLetterCodes.TOO_LARGE, "record of " + value.remaining()
          + " bytes on " + topic + " is larger than the limit of " + Limits.MAX_RECORD_BYTES
          + " bytes; not decoded");
      return;
    }
    String workflowId;
    try {
      if (topic.equals(Topics.WORKFLOWS.name())) {
        workflowId = Topics.WORKFLOWS.decode(bytes(value)).getWorkflowId();
        Violation bad = Validation.id("workflowId", workflowId);
        if (bad != null) {
          dead(raw, ctx, DeadLetterCodes.INVALID_WORKFLOW, "invalid WorkflowSubmitted: "
              + bad.reason());
          return;
        }
      } else if (topic.equals(Topics.JOB_STATUS.name())) {
        workflowId = Topics.JOB_STATUS.decode(bytes(value)).getWorkflow();
        if (workflowId == null) {
          return; // a job submitted alone: nothing for the runner
        }
      } else {
        dead(raw, ctx, DeadLetterCodes.INVALID, "unknown workflow input topic '" + topic + "'");
        return;
      }
    } catch (SchemaException e) {
      dead(raw, ctx, e.code(), e.getMessage());
      return;
    }
    RawRecord keyed = RawRecord.newBuilder(raw)
        .setKey(ByteBuffer.wrap(workflowId.getBytes(StandardCharsets.UTF_8)))
        .build();
    out.collect(keyed);
  }

  /** The key the runner is keyed by: the workflow id this function put in the record's key. */
  public static String workflowId(RawRecord keyed) {
    return StandardCharsets.UTF_8.decode(keyed.getKey().duplicate()).toString();
  }

  /** Decodes a keyed record's value as a part, or null when it is a job-status record. */
  static WorkflowSubmitted part(RawRecord keyed) {
    return keyed.getTopic().equals(Topics.WORKFLOWS.name())
        ? Topics.WORKFLOWS.decode(bytes(keyed.getValue())) : null;
  }

  /** Decodes a keyed record's value as a job status, or null when it is a part. */
  static JobStatus status(RawRecord keyed) {
    return keyed.getTopic().equals(Topics.JOB_STATUS.name())
        ? Topics.JOB_STATUS.decode(bytes(keyed.getValue())) : null;
  }

  private static void dead(RawRecord raw, Context ctx, String code, String reason) {
    // The record's own time: a replay of the same input writes the same dead letter.
    ctx.output(DEAD_LETTERS, ParseAndValidate.deadLetter(raw, code, reason, raw.getTimestampMs()));
  }

  private static byte[] bytes(ByteBuffer buf) {
    byte[] out = new byte[buf.remaining()];
    buf.duplicate().get(out);
    return out;
  }
}
