package io.locus.connectors.functions;

import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.Control;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.codec.SchemaException;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.limits.Limits;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
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
 * that breaks a rule) goes to the {@link #DEAD_LETTERS} side output with its coordinates, a
 * reason and a code ({@link DeadLetterCodes}), and processing goes on: bad input never stops the
 * job (ARCHITECTURE rule 5). Decoding is bounded ({@code AvroCodec}): a record over 1 MiB or
 * one whose lengths lie cannot make this operator allocate more than the record's size.
 *
 * <p>A dead letter keeps at most the first {@link #MAX_DEAD_VALUE_BYTES} of the bad value (its
 * reason says so when cut), so a dead letter can always be written, whatever came in.
 *
 * <p>Metrics, on the operator's {@code locus} group (the scheduler operator uses the same names,
 * docs/operations.md): {@code validInputs}, and dead letters by reason, {@code
 * deadLetters.reason=<code>.count} (e.g. Prometheus {@code
 * flink_taskmanager_job_task_operator_locus_deadLetters_reason_count{reason="too-large"}}).
 */
public class ParseAndValidate extends ProcessFunction<RawRecord, SchedulerInput> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ParseAndValidate.class);

  /** Records that could not be used, ready for the dead-letter sink. */
  public static final OutputTag<DeadLetter> DEAD_LETTERS =
      new OutputTag<>("dead-letters", LocusTypes.DEAD_LETTER);

  /** Longest reason kept; decoder messages can embed long schema details. */
  static final int MAX_REASON = 2000;

  /** Longest copy of a bad value kept in its dead letter: 64 KiB. */
  public static final int MAX_DEAD_VALUE_BYTES = 64 * 1024;

  /** The metric group of the dead-letter counters: {@code locus.deadLetters.reason=<code>}. */
  public static final String DEAD_LETTERS_METRIC = "deadLetters";

  // Static: TopicSpec is not Serializable, and the registry is the same in every JVM.
  private static final Map<String, TopicSpec<?>> INPUTS_BY_NAME =
      Topics.INPUTS.stream().collect(Collectors.toUnmodifiableMap(TopicSpec::name,
          Function.identity()));

  private transient Counter validInputs;
  private transient Map<String, Counter> deadLettersByCode;

  @Override
  public void open(OpenContext openContext) throws Exception {
    MetricGroup locus = getRuntimeContext().getMetricGroup().addGroup("locus");
    validInputs = locus.counter("validInputs", new ThreadSafeSimpleCounter());
    MetricGroup dead = locus.addGroup(DEAD_LETTERS_METRIC);
    deadLettersByCode = new HashMap<>();
    // Registered up front, so every code shows (as 0) on a dashboard before it first happens.
    for (String code : DeadLetterCodes.ALL) {
      deadLettersByCode.put(code, dead.addGroup("reason", code)
          .counter("count", new ThreadSafeSimpleCounter()));
    }
  }

  /** Records accepted so far (tests). */
  long validInputs() {
    return validInputs.getCount();
  }

  /** Dead letters of {@code code} so far (tests). */
  long deadLetters(String code) {
    return deadLettersByCode.get(code).getCount();
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
      outcome = Outcome.rejected(DeadLetterCodes.INTERNAL, "internal error while parsing: " + e);
    }
    if (outcome.input() != null) {
      validInputs.inc();
      out.collect(outcome.input());
    } else {
      // Every code the parser gives is in the list; an unlisted one would count as internal.
      deadLettersByCode.getOrDefault(outcome.code(),
          deadLettersByCode.get(DeadLetterCodes.INTERNAL)).inc();
      LOG.debug("dead letter {}-{}@{} ({}): {}", raw.getTopic(), raw.getPartition(),
          raw.getOffset(), outcome.code(), outcome.reason());
      ctx.output(DEAD_LETTERS, deadLetter(raw, outcome.code(), outcome.reason(),
          ctx.timerService().currentProcessingTime()));
    }
  }

  /** Either a usable input, or the reason it is not and its dead-letter code. */
  public record Outcome(SchedulerInput input, String code, String reason) {
    static Outcome accepted(SchedulerInput input) {
      return new Outcome(input, null, null);
    }

    static Outcome rejected(String code, String reason) {
      return new Outcome(null, code, reason);
    }
  }

  /** Decodes and validates one record; a pure function, usable without Flink. */
  public static Outcome parse(RawRecord raw) {
    TopicSpec<?> topic = INPUTS_BY_NAME.get(raw.getTopic());
    if (topic == null) {
      return Outcome.rejected(DeadLetterCodes.INVALID,
          "unknown input topic " + Validation.quote(raw.getTopic())
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
      return Outcome.rejected(DeadLetterCodes.INVALID, "record key is not valid UTF-8");
    }
    if (key != null && key.length() > Limits.MAX_ID_CHARS) {
      // The key is the pool; checked before the value is even copied.
      return Outcome.rejected(DeadLetterCodes.TOO_LARGE, "record key is " + key.length()
          + " chars long, more than the limit of " + Limits.MAX_ID_CHARS + " for a pool: "
          + Validation.quote(key));
    }
    ByteBuffer valueBuffer = raw.getValue();
    if (valueBuffer == null || valueBuffer.remaining() == 0) {
      return Outcome.rejected(DeadLetterCodes.CORRUPT, "empty value: expected a "
          + topic.valueType().getSimpleName() + " on " + topic.name());
    }
    if (valueBuffer.remaining() > Limits.MAX_RECORD_BYTES) {
      // Refused before copying it: the codec would refuse it too, after a copy.
      return Outcome.rejected(DeadLetterCodes.TOO_LARGE, topic.valueType().getSimpleName()
          + " record of " + valueBuffer.remaining() + " bytes is larger than the limit of "
          + Limits.MAX_RECORD_BYTES + " bytes; not decoded");
    }
    byte[] value = bytes(valueBuffer);
    Object event;
    try {
      event = topic.decode(value);
    } catch (SchemaException e) {
      return Outcome.rejected(e.code(), e.getMessage());
    }
    Optional<Violation> violation = Validation.check(event, key);
    if (violation.isPresent()) {
      return Outcome.rejected(violation.get().code(),
          "invalid " + event.getClass().getSimpleName() + ": " + violation.get().reason());
    }
    // The coordinates travel with the event so the scheduler can name the record it rejects.
    return Outcome.accepted(new SchedulerInput(poolOf(event), event, raw.getTopic(),
        raw.getPartition(), raw.getOffset(), raw.getTimestampMs()));
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
    } else if (event instanceof JobCommand e) {
      return e.getPool();
    }
    throw new IllegalArgumentException("not an input event: " + event.getClass().getName());
  }

  /**
   * The dead letter for a raw record: its coordinates, its key and value (both cut to
   * {@link #MAX_DEAD_VALUE_BYTES}; the reason says so), the reason (cut to {@link #MAX_REASON}
   * chars) and the code.
   */
  public static DeadLetter deadLetter(RawRecord raw, String code, String reason, long timeMs) {
    String r = reason == null ? "unknown reason" : reason;
    if (r.length() > MAX_REASON) {
      r = r.substring(0, MAX_REASON) + "...";
    }
    ByteBuffer key = raw.getKey();
    ByteBuffer value = raw.getValue();
    if (key != null && key.remaining() > MAX_DEAD_VALUE_BYTES) {
      r += " (key cut to its first " + MAX_DEAD_VALUE_BYTES + " of " + key.remaining()
          + " bytes)";
      key = prefix(key, MAX_DEAD_VALUE_BYTES);
    }
    if (value != null && value.remaining() > MAX_DEAD_VALUE_BYTES) {
      r += " (value cut to its first " + MAX_DEAD_VALUE_BYTES + " of " + value.remaining()
          + " bytes)";
      value = prefix(value, MAX_DEAD_VALUE_BYTES);
    }
    return DeadLetter.newBuilder()
        .setSourceTopic(raw.getTopic())
        .setPartition(raw.getPartition())
        .setOffset(raw.getOffset())
        .setKey(key)
        .setValue(value)
        .setReason(r)
        .setTimeMs(timeMs)
        .setCode(code == null ? DeadLetterCodes.INTERNAL : code)
        .build();
  }

  /** A copy of the first {@code n} bytes (a copy, so the big buffer can be collected). */
  private static ByteBuffer prefix(ByteBuffer buf, int n) {
    byte[] out = new byte[n];
    buf.duplicate().get(out);
    return ByteBuffer.wrap(out);
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
