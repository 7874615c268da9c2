package io.locus.connectors.functions;

import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The one place that says what a usable input event is. Avro already guarantees types and
 * non-null required fields; these rules catch what the schema cannot express and what would
 * otherwise corrupt the scheduler's state or reach an agent's file system (input ids become
 * cache file names, hence the path rules).
 *
 * <p>Each method returns the first violated rule as a readable reason, or empty when the event is
 * valid. {@code key} is the Kafka record key as a string, or null when the record had none; every
 * input topic is keyed by pool, so a present key must equal the event's pool (a mismatch means
 * the record sits in the wrong partition and would be ordered against the wrong pool's events).
 */
public final class Validation {
  private static final int MAX_QUOTED = 80;

  private Validation() {}

  /**
   * Validates any input event type.
   *
   * @throws IllegalArgumentException for a type that is not an input event
   */
  public static Optional<String> check(Object event, String key) {
    if (event instanceof JobSubmitted e) {
      return jobSubmitted(e, key);
    } else if (event instanceof TaskEvent e) {
      return taskEvent(e, key);
    } else if (event instanceof NodeReport e) {
      return nodeReport(e, key);
    } else if (event instanceof Control e) {
      return control(e, key);
    }
    throw new IllegalArgumentException("not an input event: "
        + (event == null ? "null" : event.getClass().getName()));
  }

  /**
   * A job. An event-range job ({@code events} set) must be splittable, its range non-empty and
   * non-negative, its dataset an id; it needs no file inputs (the range is its data), but inputs it
   * has follow the usual rules. A splittable job without a range is a file-based job as before.
   */
  public static Optional<String> jobSubmitted(JobSubmitted job, String key) {
    EventRange events = job.getEvents();
    return first(
        () -> pool(job.getPool(), key),
        () -> id("jobId", job.getJobId()),
        () -> events != null && !job.getSplittable()
            ? "events is set but splittable is false: an event-range job must be splittable"
            : null,
        () -> events == null ? null : eventRange("events", events, false),
        () -> events != null && job.getInputs().isEmpty() ? null : inputs(job.getInputs()),
        () -> nonNegativeFinite("computeSeconds", job.getComputeSeconds()),
        () -> profile(job.getProfile()),
        () -> job.getTemplate() == null ? null : id("template", job.getTemplate()));
  }

  /**
   * A task event. SHRUNK and SUSPENDED are acknowledgements of an event-range task and must carry
   * {@code stopAt}; a processed range, when present, may be empty (a task suspended before its first
   * event) and on SUSPENDED ends at {@code stopAt}.
   */
  public static Optional<String> taskEvent(TaskEvent event, String key) {
    TaskEventType type = event.getType();
    boolean ack = type == TaskEventType.SHRUNK || type == TaskEventType.SUSPENDED;
    return first(
        () -> pool(event.getPool(), key),
        () -> id("taskId", event.getTaskId()),
        () -> id("jobId", event.getJobId()),
        () -> event.getAttempt() < 0 ? "attempt is negative (" + event.getAttempt() + ")" : null,
        () -> id("node", event.getNode()),
        () -> nonNegative("bytesLocal", event.getBytesLocal()),
        () -> nonNegative("bytesPeer", event.getBytesPeer()),
        () -> nonNegative("bytesStorage", event.getBytesStorage()),
        () -> ack && event.getStopAt() == null ? type + " needs stopAt" : null,
        () -> event.getStopAt() == null ? null : nonNegative("stopAt", event.getStopAt()),
        () -> event.getEvents() == null ? null : eventRange("events", event.getEvents(), true),
        () -> type == TaskEventType.SUSPENDED && event.getEvents() != null
            && event.getEvents().getEnd() != event.getStopAt()
            ? "SUSPENDED stopAt " + event.getStopAt() + " is not the end of the processed range "
                + event.getEvents().getEnd() : null);
  }

  public static Optional<String> nodeReport(NodeReport report, String key) {
    boolean register = report.getType() == NodeReportType.REGISTER;
    return first(
        () -> pool(report.getPool(), key),
        () -> id("node", report.getNode()),
        () -> register && report.getSlots() < 1
            ? "REGISTER needs slots >= 1 (got " + report.getSlots() + ")" : null,
        () -> register && report.getCacheCapacityBytes() < 0
            ? "REGISTER needs cacheCapacityBytes >= 0 (got " + report.getCacheCapacityBytes() + ")"
            : null,
        () -> cachedFiles(report.getAdded()),
        () -> removedFiles(report.getRemoved()));
  }

  public static Optional<String> control(Control control, String key) {
    ControlType type = control.getType();
    return first(
        () -> pool(control.getPool(), key),
        () -> type == ControlType.SET_POLICY && isBlank(control.getPolicy())
            ? "SET_POLICY needs a policy" : null,
        () -> type == ControlType.SET_POLICY ? id("policy", control.getPolicy()) : null,
        () -> (type == ControlType.DRAIN_NODE || type == ControlType.RESUME_NODE)
            && isBlank(control.getNode()) ? type + " needs a node" : null,
        () -> control.getNode() == null ? null : id("node", control.getNode()));
  }

  // ---- building blocks (package-private for tests) ----

  /** The pool is an id and, when the record has a key, equals it. */
  static String pool(String pool, String key) {
    String bad = id("pool", pool);
    if (bad != null) {
      return bad;
    }
    if (key != null && !key.equals(pool)) {
      return "pool " + quote(pool) + " does not match the record key " + quote(key);
    }
    return null;
  }

  /** An identifier: present, not blank, no control characters (they break logs and file names). */
  static String id(String what, String value) {
    if (value == null) {
      return what + " is missing";
    }
    if (value.isBlank()) {
      return what + " is blank";
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        return what + " contains a control character at index " + i;
      }
    }
    return null;
  }

  /**
   * A data unit id. It is also the file name in the agents' caches, so it must not be able to
   * climb out of the cache directory or name an absolute path.
   */
  static String fileId(String what, String value) {
    String bad = id(what, value);
    if (bad != null) {
      return bad;
    }
    if (value.contains("..")) {
      return what + " " + quote(value) + " contains '..'";
    }
    if (value.startsWith("/") || value.startsWith("\\")) {
      return what + " " + quote(value) + " starts with a path separator";
    }
    return null;
  }

  private static String inputs(List<DataUnit> inputs) {
    if (inputs == null || inputs.isEmpty()) {
      return "job has no inputs";
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < inputs.size(); i++) {
      DataUnit unit = inputs.get(i);
      String at = "inputs[" + i + "]";
      if (unit == null) {
        return at + " is missing";
      }
      String bad = fileId(at + ".id", unit.getId());
      if (bad == null) {
        bad = nonNegative(at + ".bytes", unit.getBytes());
      }
      if (bad == null) {
        bad = nonNegativeFinite(at + ".computeSeconds", unit.getComputeSeconds());
      }
      if (bad != null) {
        return bad;
      }
      if (!seen.add(unit.getId())) {
        return "duplicate input id " + quote(unit.getId());
      }
    }
    return null;
  }

  /** {@code [start, end)} of a dataset: start &ge; 0, start &lt; end (or &le; when it may be empty). */
  private static String eventRange(String what, EventRange r, boolean mayBeEmpty) {
    String bad = id(what + ".dataset", r.getDataset());
    if (bad != null) {
      return bad;
    }
    if (r.getStart() < 0) {
      return what + ".start is negative (" + r.getStart() + ")";
    }
    if (mayBeEmpty ? r.getEnd() < r.getStart() : r.getEnd() <= r.getStart()) {
      return what + " [" + r.getStart() + ", " + r.getEnd() + ") "
          + (mayBeEmpty ? "ends before it starts" : "is empty: start must be < end");
    }
    return null;
  }

  /** Shares of one node, so each in [0, 1]. */
  private static String profile(ResourceProfile profile) {
    if (profile == null) {
      return null;
    }
    return first(
        () -> share("profile.cpu", profile.getCpu()),
        () -> share("profile.io", profile.getIo()),
        () -> share("profile.mem", profile.getMem()),
        () -> share("profile.net", profile.getNet())).orElse(null);
  }

  private static String cachedFiles(List<CachedFile> files) {
    for (int i = 0; i < files.size(); i++) {
      CachedFile f = files.get(i);
      String at = "added[" + i + "]";
      if (f == null) {
        return at + " is missing";
      }
      String bad = fileId(at + ".fileId", f.getFileId());
      if (bad == null) {
        bad = nonNegative(at + ".bytes", f.getBytes());
      }
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  private static String removedFiles(List<String> files) {
    for (int i = 0; i < files.size(); i++) {
      String bad = id("removed[" + i + "]", files.get(i));
      if (bad != null) {
        return bad;
      }
    }
    return null;
  }

  private static String nonNegative(String what, long value) {
    return value < 0 ? what + " is negative (" + value + ")" : null;
  }

  private static String nonNegativeFinite(String what, double value) {
    if (!Double.isFinite(value)) {
      return what + " is not finite (" + value + ")";
    }
    return value < 0 ? what + " is negative (" + value + ")" : null;
  }

  private static String share(String what, double value) {
    return Double.isFinite(value) && value >= 0 && value <= 1
        ? null : what + " must be a share in [0, 1] (got " + value + ")";
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
  private static Optional<String> first(Supplier<String>... rules) {
    for (Supplier<String> rule : rules) {
      String violation = rule.get();
      if (violation != null) {
        return Optional.of(violation);
      }
    }
    return Optional.empty();
  }
}
