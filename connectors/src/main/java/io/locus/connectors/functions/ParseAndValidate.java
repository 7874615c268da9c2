package io.locus.connectors.functions;

import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.Control;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.codec.SchemaException;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns raw input records into {@link SchedulerInput}s: decodes the value with the codec of the
 * topic it came from, validates it ({@link Validation}) and tags it with its pool and source
 * coordinates. Everything
 * else (unknown topic, missing value, bytes that are not a record of the topic's type, a record
 * that breaks a rule) goes to the {@link #DEAD_LETTERS} side output with its coordinates and a
 * reason, and processing goes on: bad input never stops the job (ARCHITECTURE rule 5).
 *
 * <p>Metrics: counters {@code validInputs} and {@code deadLetters} on the operator.
 */
public class ParseAndValidate extends ProcessFunction<RawRecord, SchedulerInput> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ParseAndValidate.class);

  /** Records that could not be used, ready for the dead-letter sink. */
  public static final OutputTag<DeadLetter> DEAD_LETTERS =
      new OutputTag<>("dead-letters", LocusTypes.DEAD_LETTER);

  /** Longest reason kept; decoder messages can embed long schema details. */
  static final int MAX_REASON = 2000;

  // Static: TopicSpec is not Serializable, and the registry is the same in every JVM.
  private static final Map<String, TopicSpec<?>> INPUTS_BY_NAME =
      Topics.INPUTS.stream().collect(Collectors.toUnmodifiableMap(TopicSpec::name,
          Function.identity()));

  private transient Counter validInputs;
  private transient Counter deadLetters;

  @Override
  public void open(OpenContext openContext) throws Exception {
    validInputs = getRuntimeContext().getMetricGroup().counter("validInputs");
    deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
  }

  @Override
  public void processElement(RawRecord raw, Context ctx, Collector<SchedulerInput> out) {
    Outcome outcome;
    try {
      outcome = parse(raw);
    } catch (RuntimeException e) {
      // A bug in a rule, not bad input; still no reason to stop scheduling every other pool.
      LOG.warn("unexpected failure parsing {}-{}@{}", raw.getTopic(), raw.getPartition(),
          raw.getOffset(), e);
      outcome = Outcome.rejected("internal error while parsing: " + e);
    }
    if (outcome.input() != null) {
      validInputs.inc();
      out.collect(outcome.input());
    } else {
      deadLetters.inc();
      LOG.debug("dead letter {}-{}@{}: {}", raw.getTopic(), raw.getPartition(), raw.getOffset(),
          outcome.reason());
      ctx.output(DEAD_LETTERS,
          deadLetter(raw, outcome.reason(), ctx.timerService().currentProcessingTime()));
    }
  }

  /** Either a usable input or the reason it is not. */
  public record Outcome(SchedulerInput input, String reason) {
    static Outcome accepted(SchedulerInput input) {
      return new Outcome(input, null);
    }

    static Outcome rejected(String reason) {
      return new Outcome(null, reason);
    }
  }

  /** Decodes and validates one record; a pure function, usable without Flink. */
  public static Outcome parse(RawRecord raw) {
    TopicSpec<?> topic = INPUTS_BY_NAME.get(raw.getTopic());
    if (topic == null) {
      return Outcome.rejected("unknown input topic " + Validation.quote(raw.getTopic())
          + "; inputs are " + INPUTS_BY_NAME.keySet());
    }
    String key;
    try {
      key = raw.getKey() == null ? null : StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(raw.getKey().duplicate())
          .toString();
    } catch (CharacterCodingException e) {
      return Outcome.rejected("record key is not valid UTF-8");
    }
    byte[] value = bytes(raw.getValue());
    if (value == null || value.length == 0) {
      return Outcome.rejected("empty value: expected a " + topic.valueType().getSimpleName()
          + " on " + topic.name());
    }
    Object event;
    try {
      event = topic.decode(value);
    } catch (SchemaException e) {
      return Outcome.rejected(e.getMessage());
    }
    Optional<String> violation = Validation.check(event, key);
    if (violation.isPresent()) {
      return Outcome.rejected(
          "invalid " + event.getClass().getSimpleName() + ": " + violation.get());
    }
    // The coordinates travel with the event so the scheduler can name the record it rejects.
    return Outcome.accepted(new SchedulerInput(poolOf(event), event, raw.getTopic(),
        raw.getPartition(), raw.getOffset()));
  }

  private static String poolOf(Object event) {
    if (event instanceof JobSubmitted e) {
      return e.getPool();
    } else if (event instanceof TaskEvent e) {
      return e.getPool();
    } else if (event instanceof NodeReport e) {
      return e.getPool();
    } else if (event instanceof Control e) {
      return e.getPool();
    }
    throw new IllegalArgumentException("not an input event: " + event.getClass().getName());
  }

  static DeadLetter deadLetter(RawRecord raw, String reason, long timeMs) {
    String r = reason == null ? "unknown reason" : reason;
    if (r.length() > MAX_REASON) {
      r = r.substring(0, MAX_REASON) + "...";
    }
    return new DeadLetter(raw.getTopic(), raw.getPartition(), raw.getOffset(), raw.getKey(),
        raw.getValue(), r, timeMs);
  }

  private static byte[] bytes(ByteBuffer buf) {
    if (buf == null) {
      return null;
    }
    byte[] out = new byte[buf.remaining()];
    buf.duplicate().get(out); // duplicate: leave the record's buffer position untouched
    return out;
  }
}
