package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.ReplicateFile;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's requests on this agent's cache: {@link EvictFiles} and {@link ReplicateFile}.
 * Each sends its own CACHE_DELTA at once.
 *
 * <ul>
 *   <li>EvictFiles removes the unpinned files it names. A file a running task uses stays; the
 *       refusal is logged and counted ({@link AgentStats#evictionsRefused}), with no task event
 *       (there is no task to name), and left out of the delta so the scheduler's index keeps it.
 *   <li>ReplicateFile fetches a file into the cache, from the named peer or storage (a peer that
 *       lost it sends the read to storage). A file already here is touched; one being fetched, or
 *       larger than the whole cache, is left alone. Tasks needing it meanwhile wait for it.
 * </ul>
 * Guarded by the agent's monitor.
 */
final class CacheRequests {
  private static final Logger LOG = LoggerFactory.getLogger(CacheRequests.class);

  private final AgentContext ctx;
  private final Stager stager;
  private final SharedFetches shared;
  private final Set<Replication> replications = new LinkedHashSet<>();

  CacheRequests(AgentContext ctx, Stager stager, SharedFetches shared) {
    this.ctx = ctx;
    this.stager = stager;
    this.shared = shared;
  }

  void evict(Decision d, EvictFiles e) {
    CacheDelta delta = new CacheDelta();
    List<String> pinned = new ArrayList<>();
    for (String f : e.getFiles()) {
      if (!ctx.cache.contains(f)) {
        continue;
      }
      if (ctx.cache.isPinned(f)) {
        pinned.add(f);
        continue;
      }
      ctx.cache.remove(f, delta);
      ctx.counters.filesEvictedOnRequest++;
    }
    ctx.reports.send(delta);
    if (!pinned.isEmpty()) {
      ctx.counters.evictionsRefused += pinned.size();
      LOG.info("{}: decision {} asked to evict {} which running tasks use; kept", ctx.nodeId(),
          d.getDecisionId(), pinned);
    }
  }

  void replicate(ReplicateFile r) {
    String f = r.getFileId();
    if (ctx.cache.contains(f)) {
      ctx.cache.touch(f);
      return;
    }
    if (shared.inProgress(f) || r.getBytes() > ctx.cache.capacity()) {
      return;
    }
    shared.begin(f);
    Replication rep = new Replication(r);
    replications.add(rep);
    String peer = r.getPeerNode();
    if (r.getSource() == FetchSource.PEER && peer != null && !peer.equals(ctx.nodeId())) {
      read(rep, FetchSource.PEER, peer);
    } else {
      read(rep, FetchSource.STORAGE, null);
    }
  }

  private void read(Replication rep, FetchSource source, String peer) {
    RunStep step = new RunStep();
    rep.step = step;
    ReplicateFile r = rep.request;
    StageRequest request = new StageRequest(ctx.nodeId(), r.getFileId(), r.getBytes(), source,
        peer, r.getLocation(), null);
    step.handle = stager.fetch(request,
        outcome -> ctx.locked(() -> onRead(rep, step, request, outcome)));
  }

  private void onRead(Replication rep, RunStep step, StageRequest request,
      StageRequest.Outcome outcome) {
    if (rep.step != step || !ctx.live()) {
      ctx.cache.discard(request);
      return;
    }
    rep.step = null;
    String f = rep.request.getFileId();
    if (outcome == StageRequest.Outcome.NOT_FOUND && request.source() == FetchSource.PEER) {
      ctx.counters.peerFallbacks++;
      read(rep, FetchSource.STORAGE, null);
      return;
    }
    replications.remove(rep);
    if (outcome == StageRequest.Outcome.DONE) {
      ctx.counters.replicatedBytes += rep.request.getBytes();
      CacheDelta delta = new CacheDelta();
      if (!ctx.cache.insert(request, delta)) {
        ctx.cache.discard(request);
      }
      ctx.reports.send(delta);
    } else {
      LOG.warn("{}: replication of {} failed: {}", ctx.nodeId(), f, outcome);
    }
    shared.end(f);
  }

  /** The agent stops: every replication in progress is cancelled. */
  void stopAll() {
    for (Replication r : replications) {
      if (r.step != null) {
        r.step.handle.cancel();
      }
    }
    replications.clear();
  }

  private static final class Replication {
    final ReplicateFile request;
    RunStep step;

    Replication(ReplicateFile request) {
      this.request = request;
    }
  }
}
