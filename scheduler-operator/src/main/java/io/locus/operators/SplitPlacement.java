package io.locus.operators;

import io.locus.core.split.CostSegment;
import io.locus.core.split.SplitCommand;
import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.FetchSource;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import java.util.ArrayList;
import java.util.List;

/**
 * A split core's RUN as the {@link PlaceTask} an agent executes: the subjob's event range with
 * its per-event cost segments (where each part is read from), what the job's placements carry,
 * and the reason (the local share, and the bytes by source at {@code eventBytes} per event).
 */
final class SplitPlacement {
  private SplitPlacement() {}

  static PlaceTask of(SplitCommand.Run r, int attempt, SplitDriverState.JobInfo j,
      String dataset, String policy, double eventBytes) {
    List<EventSegment> segs = new ArrayList<>(r.segments().size());
    long local = 0;
    long peer = 0;
    long storage = 0;
    for (CostSegment c : r.segments()) {
      FetchSource src = switch (c.source()) {
        case LOCAL -> FetchSource.LOCAL;
        case REMOTE -> FetchSource.PEER;
        case TAPE -> FetchSource.STORAGE;
      };
      long n = c.range().length();
      switch (src) {
        case LOCAL -> local += n;
        case PEER -> peer += n;
        default -> storage += n;
      }
      segs.add(EventSegment.newBuilder().setStart(c.range().start()).setEnd(c.range().end())
          .setSource(src).setPeerNode(c.peer()).setSecondsPerEvent(c.secondsPerEvent()).build());
    }
    long total = r.range().length();
    return PlaceTask.newBuilder()
        .setTaskId(r.subjobId())
        .setJobId(r.jobId())
        .setAttempt(attempt)
        .setInputs(new ArrayList<>())
        .setComputeSeconds(r.cost())
        .setTemplate(j.template())
        .setArgs(new ArrayList<>(j.args()))
        .setSubmitTimeMs(j.submitTimeMs())
        .setReason(PlacementReason.newBuilder()
            .setPolicy(policy)
            .setScore(total == 0 ? 0 : (double) local / total)
            .setLocalBytes(Math.round(local * eventBytes))
            .setPeerBytes(Math.round(peer * eventBytes))
            .setStorageBytes(Math.round(storage * eventBytes))
            .build())
        .setEvents(new EventRange(dataset, r.range().start(), r.range().end()))
        .setEventSegments(segs)
        .build();
  }
}
