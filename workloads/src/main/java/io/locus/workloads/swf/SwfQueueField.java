package io.locus.workloads.swf;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which SWF field names a job's queue ({@link io.locus.workloads.TraceJob#queue()}), for the
 * issue-24 experiments on logs with users: fields 12–16 hold numbers (the archive anonymises
 * users, groups and executables), so the queue is the field's letter and the number ({@code user}
 * 17 → {@code u17}). A job whose field is -1 (missing) names no queue: the consumer's default
 * applies. {@link #NONE}, the default, gives no job a queue, which is how SWF logs were read
 * before.
 */
public enum SwfQueueField {
  NONE(-1, ""),
  /** Field 12, user id: one queue per user, {@code u<N>}. */
  USER(12, "u"),
  /** Field 13, group id: one queue per group (a project, an account), {@code g<N>}. */
  GROUP(13, "g"),
  /** Field 14, executable (application) number: {@code x<N>}, as the file-set model's ids. */
  EXECUTABLE(14, "x"),
  /** Field 15, the site's queue number: {@code q<N>}. */
  QUEUE(15, "q"),
  /** Field 16, partition number: {@code p<N>}. */
  PARTITION(16, "p");

  private final int field;
  private final String prefix;

  SwfQueueField(int field, String prefix) {
    this.field = field;
    this.prefix = prefix;
  }

  /** The 1-based SWF field, -1 for {@link #NONE}. */
  public int field() {
    return field;
  }

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The queue {@code job} goes to under this choice, or null for none. */
  public String queueOf(SwfJob job) {
    long v = switch (this) {
      case NONE -> -1;
      case USER -> job.userId();
      case GROUP -> job.groupId();
      case EXECUTABLE -> job.executable();
      case QUEUE -> job.queue();
      case PARTITION -> job.partition();
    };
    return v < 0 ? null : prefix + v;
  }

  /** Parses a {@link #cliName()} (any case); an unknown one is an error listing the names. */
  public static SwfQueueField parse(String name) {
    for (SwfQueueField f : values()) {
      if (f.cliName().equalsIgnoreCase(name == null ? "" : name.strip())) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown SWF queue field '" + name + "'; valid: "
        + names());
  }

  /** The valid names, comma-separated. */
  public static String names() {
    return Arrays.stream(values()).map(SwfQueueField::cliName).collect(Collectors.joining(", "));
  }
}
