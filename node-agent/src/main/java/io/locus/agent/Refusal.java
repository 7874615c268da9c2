package io.locus.agent;

import java.util.Objects;

/**
 * Why an agent refused a decision. {@code kind} is short and stable (a metrics label, the start of
 * the task event's message); {@code detail} says what exactly was wrong.
 */
public record Refusal(String kind, String detail) {
  public static final String STALE_EPOCH = "stale epoch";
  /** An epoch more than {@code NodeAgent.MAX_EPOCH_JUMP} above the highest seen. */
  public static final String ABSURD_EPOCH = "absurd epoch";
  /** A decision addressed to another agent instance of this node id. */
  public static final String OTHER_INSTANCE = "other agent instance";
  public static final String NO_FREE_SLOT = "no free slot";
  public static final String ALREADY_RUNNING = "attempt already running";
  public static final String DRAINING = "agent draining";
  /** A withdraw (CancelTask onlyIfQueued) of an attempt that already started: it runs on. */
  public static final String WITHDRAW_STARTED = "started";
  /** A withdraw of an attempt neither queued nor running here (finished, or never placed). */
  public static final String WITHDRAW_UNKNOWN = "not on this node";
  public static final String UNSIGNED = "unsigned decision";
  public static final String BAD_SIGNATURE = "bad signature";
  public static final String UNSAFE_FILE_ID = "unsafe file id";
  public static final String SYMLINK = "symlink in cache";
  public static final String LOCATION_NOT_ALLOWED = "location not allowed";
  public static final String BAD_INPUT = "bad input";
  public static final String UNKNOWN_TEMPLATE = "unknown template";
  public static final String BAD_ARGUMENT = "bad argument";
  /** A ShrinkTask or SuspendTask for an attempt that neither runs nor recently ran here. */
  public static final String UNKNOWN_TASK = "unknown task";
  /** A ShrinkTask or SuspendTask for a task that has no event range. */
  public static final String NOT_AN_EVENT_RANGE = "not an event-range task";

  public Refusal {
    Objects.requireNonNull(kind, "kind");
  }

  public static Refusal of(String kind, String detail) {
    return new Refusal(kind, detail);
  }

  /** The task event's message: the kind, then the detail. */
  public String message() {
    return detail == null || detail.isEmpty() ? kind : kind + ": " + detail;
  }
}
