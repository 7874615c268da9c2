package io.locus.agent;

import io.locus.schemas.DataUnit;
import io.locus.schemas.FetchSource;
import io.locus.schemas.PlaceTask;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a task creates ({@code PlaceTask.outputs}, issue 15). When an attempt succeeds, each
 * of its outputs enters this node's cache like a staged file: accounted by the same
 * {@code NodeCache} (quota, eviction policy), written into the run's {@link CacheDelta} and so
 * reported in a CACHE_DELTA {@code added} with its size, and then served to peers like any cached
 * file. A simulated agent's outputs have their declared sizes and no bytes; a real agent's are the
 * files its template wrote, with their real sizes (the executor hands them over as
 * {@link StageRequest}s whose bytes it landed in the {@link CacheStore}).
 *
 * <p><b>The rules.</b>
 * <ul>
 *   <li>An output larger than the whole cache, or larger than the room left beside the files that
 *       running tasks have pinned, is not cached: the task still completes, and its COMPLETED
 *       message says which output was not cached and why. Nothing is reported for it.
 *   <li>Otherwise the eviction policy makes room as for a fetched file (victims leave before the
 *       newcomer arrives, so a real cache never exceeds its quota). Outputs of one task may evict
 *       each other when together they exceed the cache; the delta then reports only the net
 *       change.
 *   <li>An output already cached (a re-run of the task, say) replaces the cached copy, unless a
 *       running task has that copy pinned as an input: then the cached copy is kept and the new
 *       one dropped, and the message says so.
 *   <li>A failed, cancelled or stopped attempt creates no outputs (a real agent drops what it
 *       wrote). Event-range tasks create none: their outputs are ignored.
 * </ul>
 * Guarded by the agent's monitor.
 */
final class TaskOutputs {
  private static final Logger LOG = LoggerFactory.getLogger(TaskOutputs.class);

  private TaskOutputs() {}

  /** Null when the declared outputs are well-formed, else why not (the placement is refused). */
  static String problem(PlaceTask p) {
    Set<String> seen = new HashSet<>();
    for (DataUnit o : p.getOutputs()) {
      if (o.getId() == null || o.getId().isEmpty()) {
        return "an output has an empty file id";
      }
      if (o.getBytes() < 0) {
        return "negative size for output " + o.getId();
      }
      if (!seen.add(o.getId())) {
        return "output " + o.getId() + " is declared twice";
      }
    }
    return null;
  }

  /** The outputs as declared: what an executor that writes no bytes (simulated) creates. */
  static List<StageRequest> declared(String node, PlaceTask p) {
    List<StageRequest> out = new ArrayList<>(p.getOutputs().size());
    for (DataUnit o : p.getOutputs()) {
      out.add(new StageRequest(node, o.getId(), o.getBytes(), FetchSource.LOCAL, null,
          o.getLocation(), o.getChecksum()));
    }
    return out;
  }

  /**
   * Puts each output into the cache, the changes into {@code delta} (not sent here).
   *
   * @return what to add to the COMPLETED message about outputs not cached; null when all were
   */
  static String cache(AgentContext ctx, String taskKey, List<StageRequest> outputs,
      CacheDelta delta) {
    List<String> notes = new ArrayList<>();
    for (StageRequest o : outputs) {
      String f = o.fileId();
      if (ctx.cache.contains(f)) {
        if (ctx.cache.isPinned(f)) {
          ctx.cache.discard(o);
          notes.add("output " + f + " not cached: a running task reads the cached copy");
          continue;
        }
        ctx.cache.remove(f, delta);
      }
      if (!ctx.cache.insert(o, delta)) {
        ctx.cache.discard(o);
        long capacity = ctx.cache.capacity();
        notes.add("output " + f + " (" + o.bytes() + " bytes) not cached: "
            + (o.bytes() > capacity ? "larger than the cache (" + capacity + " bytes)"
                : "no room beside the files running tasks use"));
      }
    }
    if (notes.isEmpty()) {
      return null;
    }
    String note = String.join("; ", notes);
    LOG.warn("{}: task {}: {}", ctx.nodeId(), taskKey, note);
    return note;
  }

  /** Drops outputs nobody will cache (the run ended another way meanwhile). */
  static void discard(AgentContext ctx, List<StageRequest> outputs) {
    if (outputs != null) {
      outputs.forEach(ctx.cache::discard);
    }
  }
}
