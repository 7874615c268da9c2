package io.locus.connectors.functions;

import static io.locus.connectors.functions.Violation.invalid;
import static io.locus.connectors.functions.Violation.tooLarge;
import static io.locus.schemas.limits.Limits.*;

import io.locus.core.share.QueueNames;
import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.QueueConfig;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.limits.FileIds;
import io.locus.schemas.limits.Limits;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The one place that says what a usable input event is. Avro already guarantees types and
 * non-null required fields; these rules catch what the schema cannot express and what would
 * otherwise corrupt the scheduler's state or reach an agent's file system (input ids become
 * cache file names, hence the path rules).
 *
 * <p>Every string, list, size, time and count is bounded ({@link Limits}, PROTOCOL-12
 * "Input bounds"): one record must not be able to exhaust the scheduler's memory, hold a slot
 * forever, move a pool's clock to the end of time or overflow its arithmetic. File ids follow
 * {@link FileIds}, the agents' own rule: a job whose file an agent could not store is
 * dead-lettered here rather than placed and failed on every node.
 *
 * <p>Each method returns the first violated rule as a {@link Violation}: a reason naming the
 * field, its value (quoted and cut) and the limit, and a dead-letter code:
 * {@code too-large} when a string is longer or a list or map has more entries than allowed,
 * {@code invalid} for everything else (missing or malformed fields, numbers out of range, byte
 * sizes included). {@code key} is the Kafka record key as a string, or null when the record had
 * none; every input topic is keyed by pool, so a present key must equal the event's pool (a
 * mismatch means the record sits in the wrong partition and would be ordered against the wrong
 * pool's events).
 */
public final class Validation {
  private static final int MAX_QUOTED = 80;

  private Validation() {}

  /**
   * Validates any input event type.
   *
   * @throws IllegalArgumentException for a type that is not an input event
   */
  public static Optional<Violation> check(Object event, String key) {
    if (event instanceof JobSubmitted e) {
      return jobSubmitted(e, key);
    } else if (event instanceof TaskEvent e) {
      return taskEvent(e, key);
    } else if (event instanceof NodeReport e) {
      return nodeReport(e, key);
    } else if (event instanceof Control e) {
      return control(e, key);
    } else if (event instanceof JobCommand e) {
      return jobCommand(e, key);
    }
    throw new IllegalArgumentException("not an input event: "
        + (event == null ? "null" : event.getClass().getName()));
  }

  /**
   * A job. An event-range job ({@code events} set) must be splittable, its range non-empty and
   * non-negative, its dataset an id; it needs no file inputs (the range is its data), but inputs it
   * has follow the usual rules. A splittable job without a range is a file-based job as before.
   */
  public static Optional<Violation> jobSubmitted(JobSubmitted job, String key) {
    EventRange events = job.getEvents();
    return first(
        () -> pool(job.getPool(), key),
        () -> id("jobId", job.getJobId()),
        () -> time("submitTimeMs", job.getSubmitTimeMs()),
        () -> events != null && !job.getSplittable()
            ? invalid("events is set but splittable is false: an event-range job must be"
                + " splittable")
            : null,
        () -> events == null ? null : eventRange("events", events, false),
        () -> events != null && job.getInputs().isEmpty() ? null : inputs(job.getInputs()),
        () -> outputs(job.getOutputs()),
        () -> computeSeconds("computeSeconds", job.getComputeSeconds()),
        () -> priority(job.getPriority()),
        () -> profile(job.getProfile()),
        () -> job.getTemplate() == null ? null : id("template", job.getTemplate()),
        () -> args(job.getArgs()),
        () -> job.getQueue() == null ? null : queueName("queue", job.getQueue()));
  }

  /**
   * A task event. SHRUNK and SUSPENDED are acknowledgements of an event-range task and must carry
   * {@code stopAt}; a processed range, when present, may be empty (a task suspended before its first
   * event) and on SUSPENDED ends at {@code stopAt}.
   */
  public static Optional<Violation> taskEvent(TaskEvent event, String key) {
    TaskEventType type = event.getType();
    boolean ack = type == TaskEventType.SHRUNK || type == TaskEventType.SUSPENDED;
    return first(
        () -> pool(event.getPool(), key),
        () -> id("taskId", event.getTaskId()),
        () -> id("jobId", event.getJobId()),
        () -> event.getAttempt() < 0
            ? invalid("attempt is negative (" + event.getAttempt() + ")") : null,
        () -> id("node", event.getNode()),
        () -> event.getDecisionId() == null ? null : id("decisionId", event.getDecisionId()),
        () -> event.getEpoch() < 0 ? invalid("epoch is negative (" + event.getEpoch() + ")") : null,
        () -> time("timeMs", event.getTimeMs()),
        () -> time("startTimeMs", event.getStartTimeMs()),
        () -> time("endTimeMs", event.getEndTimeMs()),
        () -> byteCount("bytesLocal", event.getBytesLocal(), MAX_BYTE_COUNT),
        () -> byteCount("bytesPeer", event.getBytesPeer(), MAX_BYTE_COUNT),
        () -> byteCount("bytesStorage", event.getBytesStorage(), MAX_BYTE_COUNT),
        () -> event.getMessage() == null ? null
            : length("message", event.getMessage(), MAX_TEXT_CHARS),
        () -> ack && event.getStopAt() == null ? invalid(type + " needs stopAt") : null,
        () -> event.getStopAt() == null ? null : eventIndex("stopAt", event.getStopAt()),
        () -> event.getEvents() == null ? null : eventRange("events", event.getEvents(), true),
        () -> type == TaskEventType.SUSPENDED && event.getEvents() != null
            && event.getEvents().getEnd() != event.getStopAt()
            ? invalid("SUSPENDED stopAt " + event.getStopAt()
                + " is not the end of the processed range " + event.getEvents().getEnd())
            : null,
        () -> event.getInstanceId() == null ? null : id("instanceId", event.getInstanceId()),
        () -> hmac("placementProof", event.getPlacementProof()),
        () -> signature(event.getSignature()));
  }

  /**
   * A node report. Slots, queue depth and cache capacity are bounded on every type and must be positive
   * (slots) and non-negative (capacity) on REGISTER, which is the report that sets them.
   */
  public static Optional<Violation> nodeReport(NodeReport report, String key) {
    boolean register = report.getType() == NodeReportType.REGISTER;
    return first(
        () -> pool(report.getPool(), key),
        () -> id("node", report.getNode()),
        () -> time("timeMs", report.getTimeMs()),
        () -> register && report.getSlots() < 1
            ? invalid("REGISTER needs slots >= 1 (got " + report.getSlots() + ")") : null,
        () -> report.getSlots() < 0 || report.getSlots() > MAX_SLOTS
            ? invalid("slots " + report.getSlots() + " is out of range [0, " + MAX_SLOTS + "]")
            : null,
        () -> report.getQueueDepth() < 0 || report.getQueueDepth() > MAX_QUEUE_DEPTH
            ? invalid("queueDepth " + report.getQueueDepth() + " is out of range [0, "
                + MAX_QUEUE_DEPTH + "]")
            : null,
        () -> register && report.getCacheCapacityBytes() < 0
            ? invalid("REGISTER needs cacheCapacityBytes >= 0 (got "
                + report.getCacheCapacityBytes() + ")")
            : null,
        () -> byteCount("cacheCapacityBytes", report.getCacheCapacityBytes(), MAX_BYTE_COUNT),
        () -> cachedFiles(report.getAdded()),
        () -> removedFiles(report.getRemoved()),
        () -> report.getEndpoint() == null ? null : url("endpoint", report.getEndpoint()),
        () -> report.getInstanceId() == null ? null : id("instanceId", report.getInstanceId()),
        () -> signature(report.getSignature()));
  }

  public static Optional<Violation> control(Control control, String key) {
    ControlType type = control.getType();
    return first(
        () -> pool(control.getPool(), key),
        () -> time("timeMs", control.getTimeMs()),
        () -> type == ControlType.SET_POLICY && isBlank(control.getPolicy())
            ? invalid("SET_POLICY needs a policy") : null,
        () -> control.getPolicy() == null ? null : id("policy", control.getPolicy()),
        () -> (type == ControlType.DRAIN_NODE || type == ControlType.RESUME_NODE)
            && isBlank(control.getNode()) ? invalid(type + " needs a node") : null,
        () -> control.getNode() == null ? null : id("node", control.getNode()),
        () -> params(control.getParams()),
        () -> queues(control));
  }

  /**
   * A SET_QUEUES control's tree: at most {@link Limits#MAX_QUEUES} queues, each name and parent
   * a queue name. Only what the record itself must satisfy: the tree's own rules (a cycle, a
   * guarantee above a limit, a negative weight) are the scheduler's to refuse, with every reason,
   * in the control's acknowledgement. Queues on another control type are refused: such a record
   * says something its type does not apply.
   */
  private static Violation queues(Control control) {
    List<QueueConfig> queues = control.getQueues();
    if (control.getType() != ControlType.SET_QUEUES) {
      return queues.isEmpty() ? null
          : invalid("queues are set on a " + control.getType() + " control (SET_QUEUES only)");
    }
    Violation size = listSize("queues", queues.size(), MAX_QUEUES);
    if (size != null) {
      return size;
    }
    for (int i = 0; i < queues.size(); i++) {
      QueueConfig q = queues.get(i);
      Violation bad = queueName("queues[" + i + "].name", q.getName());
      if (bad == null && q.getParent() != null) {
        bad = queueName("queues[" + i + "].parent", q.getParent());
      }
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  /** A queue name ({@link QueueNames}: the queue tree's rule, also in metric labels). */
  static Violation queueName(String what, String value) {
    String problem = QueueNames.problem(value);
    if (problem == null) {
      return null;
    }
    return value != null && value.length() > QueueNames.MAX_LENGTH
        ? tooLarge(what + ": " + problem) : invalid(what + ": " + problem);
  }

  /**
   * A user's command about one job (cancel). UNKNOWN is what this reader decodes a newer sender's
   * command type to: refused here, so the scheduler never guesses what it meant.
   */
  public static Optional<Violation> jobCommand(JobCommand command, String key) {
    return first(
        () -> pool(command.getPool(), key),
        () -> id("jobId", command.getJobId()),
        () -> command.getType() != JobCommandType.CANCEL
            ? invalid("type " + command.getType() + " is not a command this scheduler knows "
                + "(known: CANCEL); a newer client's command?") : null,
        () -> time("timeMs", command.getTimeMs()),
        () -> length("reason", command.getReason(), MAX_TEXT_CHARS),
        () -> command.getRequestId() == null ? null : id("requestId", command.getRequestId()));
  }

  // ---- building blocks (package-private for tests) ----

  /** The pool is an id and, when the record has a key, equals it. */
  static Violation pool(String pool, String key) {
    Violation bad = id("pool", pool);
    if (bad != null) {
      return bad;
    }
    if (key != null && !key.equals(pool)) {
      return invalid("pool " + quote(pool) + " does not match the record key " + quote(key));
    }
    return null;
  }

  /**
   * An identifier: present, at most {@link Limits#MAX_ID_CHARS} chars, not blank, no control
   * characters (they break logs and file names).
   */
  public static Violation id(String what, String value) {
    return identifier(what, value, MAX_ID_CHARS);
  }

  private static Violation identifier(String what, String value, int maxChars) {
    if (value == null) {
      return invalid(what + " is missing");
    }
    Violation tooLong = length(what, value, maxChars);
    if (tooLong != null) {
      return tooLong;
    }
    if (value.isBlank()) {
      return invalid(what + " is blank");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        return invalid(what + " contains a control character at index " + i);
      }
    }
    return null;
  }

  /** A string of at most {@code maxChars} chars (any content). */
  static Violation length(String what, String value, int maxChars) {
    if (value.length() > maxChars) {
      return tooLarge(what + " is " + value.length() + " chars long, more than the limit of "
          + maxChars + ": " + quote(value));
    }
    return null;
  }

  /**
   * A data unit id. It is also the file name in the agents' caches, so it follows the agents'
   * own rule ({@link FileIds#problem}): at most {@link Limits#MAX_FILE_ID_BYTES} bytes as a
   * file name ({@code too-large}), no way out of the cache directory, no control character
   * ({@code invalid}).
   */
  static Violation fileId(String what, String value) {
    if (value == null) {
      return invalid(what + " is missing");
    }
    if (value.isBlank()) {
      return invalid(what + " is blank");
    }
    String tooLong = FileIds.lengthProblem(value);
    if (tooLong != null) {
      return tooLarge(what + " " + tooLong + " (agents name cached files by it)");
    }
    String problem = FileIds.problem(value);
    return problem == null ? null : invalid(what + " " + problem);
  }

  /** A URL (endpoint, location): at most {@link Limits#MAX_URL_CHARS}, no control chars. */
  static Violation url(String what, String value) {
    return identifier(what, value, MAX_URL_CHARS);
  }

  /**
   * A job's priority: in [{@link Limits#MIN_PRIORITY}, {@link Limits#MAX_PRIORITY}]; beyond it the
   * core's queue order (priority before arrival, one long) is undefined, and such a value is
   * almost always a mistake (a Kubernetes class value of 10^9).
   */
  static Violation priority(int value) {
    return value < Limits.MIN_PRIORITY || value > Limits.MAX_PRIORITY
        ? invalid("priority " + value + " is out of range [" + Limits.MIN_PRIORITY + ", "
            + Limits.MAX_PRIORITY + "]")
        : null;
  }

  /** A record time: in [0, 2^42] ms (until the year 2109). */
  static Violation time(String what, long value) {
    return value < 0 || value > MAX_TIME_MS
        ? invalid(what + " " + value + " is out of range [0, " + MAX_TIME_MS
            + "] (ms since 1970, until the year 2109)")
        : null;
  }

  /** A byte size or counter: non-negative and at most {@code max}. */
  static Violation byteCount(String what, long value, long max) {
    if (value < 0) {
      return invalid(what + " is negative (" + value + ")");
    }
    return value > max
        ? invalid(what + " " + value + " is more than the limit of " + max + " bytes") : null;
  }

  /** Compute seconds: finite, non-negative, at most {@link Limits#MAX_COMPUTE_SECONDS}. */
  static Violation computeSeconds(String what, double value) {
    if (!Double.isFinite(value)) {
      return invalid(what + " is not finite (" + value + ")");
    }
    if (value < 0) {
      return invalid(what + " is negative (" + value + ")");
    }
    return value > MAX_COMPUTE_SECONDS
        ? invalid(what + " " + value + " is more than the limit of " + MAX_COMPUTE_SECONDS + " s")
        : null;
  }

  /** Absent, or exactly 64 lowercase hex chars (an HMAC-SHA256 from RecordSigner). */
  static Violation signature(String value) {
    return hmac("signature", value);
  }

  /** Field {@code what}: absent, or an HMAC-SHA256 as 64 lowercase hex chars. */
  static Violation hmac(String what, String value) {
    if (value == null) {
      return null;
    }
    if (value.length() > SIGNATURE_HEX_CHARS) {
      return tooLarge(what + " is " + value.length() + " chars long, more than the "
          + SIGNATURE_HEX_CHARS + " of an HMAC-SHA256 in hex: " + quote(value));
    }
    boolean hex = value.length() == SIGNATURE_HEX_CHARS;
    for (int i = 0; hex && i < value.length(); i++) {
      char c = value.charAt(i);
      hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
    return hex ? null : invalid(what + " " + quote(value) + " is not "
        + SIGNATURE_HEX_CHARS + " lowercase hex chars (an HMAC-SHA256)");
  }

  private static Violation listSize(String what, int size, int max) {
    return size > max
        ? tooLarge(what + " has " + size + " entries, more than the limit of " + max) : null;
  }

  private static Violation inputs(List<DataUnit> inputs) {
    if (inputs == null || inputs.isEmpty()) {
      return invalid("job has no inputs");
    }
    Violation tooMany = listSize("inputs", inputs.size(), MAX_INPUTS_PER_JOB);
    if (tooMany != null) {
      return tooMany;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < inputs.size(); i++) {
      DataUnit unit = inputs.get(i);
      String at = "inputs[" + i + "]";
      Violation bad = dataUnit(at, unit);
      if (bad != null) {
        return bad;
      }
      if (!seen.add(unit.getId())) {
        return invalid("duplicate input id " + quote(unit.getId()));
      }
    }
    return null;
  }

  /** One input or output file: the same rules for both (an agent stores either in its cache). */
  private static Violation dataUnit(String at, DataUnit unit) {
    if (unit == null) {
      return invalid(at + " is missing");
    }
    return first(
        () -> fileId(at + ".id", unit.getId()),
        () -> byteCount(at + ".bytes", unit.getBytes(), MAX_FILE_BYTES),
        () -> computeSeconds(at + ".computeSeconds", unit.getComputeSeconds()),
        () -> unit.getLocation() == null ? null : url(at + ".location", unit.getLocation()),
        () -> unit.getChecksum() == null ? null : id(at + ".checksum", unit.getChecksum()))
        .orElse(null);
  }

  /**
   * Outputs become files in the agent's cache (and storage): the same rules as inputs, since an
   * agent refuses a placement whose output id it could not store.
   */
  private static Violation outputs(List<DataUnit> outputs) {
    if (outputs == null) {
      return null;
    }
    Violation tooMany = listSize("outputs", outputs.size(), MAX_OUTPUTS_PER_JOB);
    if (tooMany != null) {
      return tooMany;
    }
    for (int i = 0; i < outputs.size(); i++) {
      DataUnit unit = outputs.get(i);
      String at = "outputs[" + i + "]";
      Violation bad = dataUnit(at, unit);
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  /** Template arguments: at most 256 of at most 4096 chars each. */
  private static Violation args(List<String> args) {
    if (args == null) {
      return null;
    }
    Violation tooMany = listSize("args", args.size(), MAX_ARGS);
    if (tooMany != null) {
      return tooMany;
    }
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg == null) {
        return invalid("args[" + i + "] is missing");
      }
      Violation bad = length("args[" + i + "]", arg, MAX_TEXT_CHARS);
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  /** Control parameters: at most 64, keys ids of at most 256 chars, values at most 4096 chars. */
  private static Violation params(Map<String, String> params) {
    if (params == null) {
      return null;
    }
    Violation tooMany = listSize("params", params.size(), MAX_PARAMS);
    if (tooMany != null) {
      return tooMany;
    }
    // Sorted, so the reason names the same entry whatever the map's iteration order.
    for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
      Violation bad = identifier("params key " + quote(e.getKey()), e.getKey(),
          MAX_PARAM_KEY_CHARS);
      if (bad == null) {
        bad = e.getValue() == null ? invalid("params[" + quote(e.getKey()) + "] is missing")
            : length("params[" + quote(e.getKey()) + "]", e.getValue(), MAX_TEXT_CHARS);
      }
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  /** {@code [start, end)} of a dataset: start &ge; 0, start &lt; end (or &le; when it may be empty). */
  private static Violation eventRange(String what, EventRange r, boolean mayBeEmpty) {
    Violation bad = id(what + ".dataset", r.getDataset());
    if (bad != null) {
      return bad;
    }
    if (r.getStart() < 0) {
      return invalid(what + ".start is negative (" + r.getStart() + ")");
    }
    if (r.getEnd() > MAX_EVENT_INDEX) {
      return invalid(what + ".end " + r.getEnd() + " is more than the limit of "
          + MAX_EVENT_INDEX);
    }
    if (mayBeEmpty ? r.getEnd() < r.getStart() : r.getEnd() <= r.getStart()) {
      return invalid(what + " [" + r.getStart() + ", " + r.getEnd() + ") "
          + (mayBeEmpty ? "ends before it starts" : "is empty: start must be < end"));
    }
    return null;
  }

  private static Violation eventIndex(String what, long value) {
    if (value < 0) {
      return invalid(what + " is negative (" + value + ")");
    }
    return value > MAX_EVENT_INDEX
        ? invalid(what + " " + value + " is more than the limit of " + MAX_EVENT_INDEX) : null;
  }

  /** Shares of one node, so each in [0, 1]. */
  private static Violation profile(ResourceProfile profile) {
    if (profile == null) {
      return null;
    }
    return first(
        () -> share("profile.cpu", profile.getCpu()),
        () -> share("profile.io", profile.getIo()),
        () -> share("profile.mem", profile.getMem()),
        () -> share("profile.net", profile.getNet())).orElse(null);
  }

  private static Violation cachedFiles(List<CachedFile> files) {
    Violation tooMany = listSize("added", files.size(), MAX_FILES_PER_REPORT);
    if (tooMany != null) {
      return tooMany;
    }
    for (int i = 0; i < files.size(); i++) {
      CachedFile f = files.get(i);
      String at = "added[" + i + "]";
      if (f == null) {
        return invalid(at + " is missing");
      }
      Violation bad = fileId(at + ".fileId", f.getFileId());
      if (bad == null) {
        bad = byteCount(at + ".bytes", f.getBytes(), MAX_FILE_BYTES);
      }
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  private static Violation removedFiles(List<String> files) {
    Violation tooMany = listSize("removed", files.size(), MAX_FILES_PER_REPORT);
    if (tooMany != null) {
      return tooMany;
    }
    for (int i = 0; i < files.size(); i++) {
      Violation bad = fileId("removed[" + i + "]", files.get(i));
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  private static Violation share(String what, double value) {
    return Double.isFinite(value) && value >= 0 && value <= 1
        ? null : invalid(what + " must be a share in [0, 1] (got " + value + ")");
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }

  /** Quotes a value for a reason: escaped control characters, long values cut. */
  static String quote(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("'");
    int n = Math.min(value.length(), MAX_QUOTED);
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (value.length() > n) {
      sb.append("...");
    }
    return sb.append('\'').toString();
  }

  /** Runs the rules in order, lazily, and returns the first violation. */
  @SafeVarargs
  private static Optional<Violation> first(Supplier<Violation>... rules) {
    for (Supplier<Violation> rule : rules) {
      Violation violation = rule.get();
      if (violation != null) {
        return Optional.of(violation);
      }
    }
    return Optional.empty();
  }
}
