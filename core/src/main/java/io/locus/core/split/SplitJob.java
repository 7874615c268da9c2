package io.locus.core.split;

/** A splittable job: its id and the one contiguous event segment it analyses. */
public record SplitJob(String id, EventSpan events) {
  public SplitJob {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("job id is required");
    }
    if (id.contains("/")) {
      throw new IllegalArgumentException("job id must not contain '/' (subjob ids are job/k): "
          + id);
    }
    if (events == null || events.isEmpty()) {
      throw new IllegalArgumentException("job " + id + " needs a non-empty event range");
    }
  }

  public static SplitJob of(String id, long start, long end) {
    return new SplitJob(id, new EventSpan(start, end));
  }
}
