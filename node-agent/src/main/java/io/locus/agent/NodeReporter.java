package io.locus.agent;

import io.locus.schemas.CachedFile;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Writes one agent's node reports (spec §3.4): REGISTER with a snapshot of the cache;
 * HEARTBEATs; a CACHE_DELTA per batch of cache changes; LEAVE. Every report carries the seq of the
 * last cache report sent (0 after registration, then 1, 2, ... without gaps: a delta is sent only
 * when it holds a change), so the scheduler can spot a lost delta; and the endpoint and the
 * draining flag. Guarded by the agent's monitor.
 */
final class NodeReporter {
  private final AgentConfig config;
  private final AgentScheduler clock;
  private final AgentOutput output;
  private final String endpoint;
  private final BooleanSupplier draining;
  private final String instanceId;
  private long seq;

  /**
   * @param endpoint where peers fetch this node's cache, or null
   * @param draining whether the agent drains now (reported in every report)
   */
  NodeReporter(AgentConfig config, AgentScheduler clock, AgentOutput output, String endpoint,
      BooleanSupplier draining, String instanceId) {
    this.config = config;
    this.clock = clock;
    this.output = output;
    this.endpoint = endpoint;
    this.draining = draining;
    this.instanceId = instanceId;
  }

  /**
   * REGISTER carrying the whole cache as {@code added} (a snapshot: it resets the scheduler's view
   * of this node's cache, and the seq to 0). Sent at start and after a ResyncNode only: REGISTER
   * tells the scheduler that nothing of the pool runs here.
   */
  void register(Map<String, Long> cached) {
    seq = 0;
    List<CachedFile> all = new ArrayList<>();
    cached.forEach((f, b) -> all.add(new CachedFile(f, b)));
    output.nodeReport(report(NodeReportType.REGISTER).setAdded(all).build());
  }

  void heartbeat() {
    output.nodeReport(report(NodeReportType.HEARTBEAT).build());
  }

  void leave() {
    output.nodeReport(report(NodeReportType.LEAVE).build());
  }

  /** Sends what {@code delta} holds as the next CACHE_DELTA and empties it; nothing when empty. */
  void send(CacheDelta delta) {
    if (delta.isEmpty()) {
      return;
    }
    seq++;
    output.nodeReport(report(NodeReportType.CACHE_DELTA)
        .setAdded(delta.added())
        .setRemoved(delta.removed())
        .build());
    delta.clear();
  }

  /** The seq of the last cache report sent (0 after registration). */
  long seq() {
    return seq;
  }

  private NodeReport.Builder report(NodeReportType type) {
    return NodeReport.newBuilder()
        .setPool(config.pool())
        .setNode(config.nodeId())
        .setType(type)
        .setTimeMs(clock.nowMs())
        .setSlots(config.slots())
        .setQueueDepth(config.queueDepth())
        .setCacheCapacityBytes(config.cacheCapacityBytes())
        .setSeq(seq)
        .setDraining(draining.getAsBoolean())
        .setEndpoint(endpoint)
        .setInstanceId(instanceId);
  }
}
