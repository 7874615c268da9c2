package io.locus.agent.real;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentOutput;
import io.locus.agent.AgentScheduler;
import io.locus.agent.AgentStats;
import io.locus.agent.NodeAgent;
import io.locus.agent.security.PeerAuth;
import io.locus.schemas.FetchSource;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real agent: a {@link NodeAgent} (the protocol, shared with the simulated mode) wired to a
 * {@link DiskCache}, a {@link RealStager}, a {@link ProcessTaskExecutor}, a
 * {@link RealDecisionGuard} and an {@link AgentHttpServer} for peers and metrics.
 *
 * <p>{@link #create} binds the HTTP server (so the endpoint is known), rescans the cache
 * directory (dropping partial downloads) and preloads what it found; {@link #start()} then
 * registers, and the REGISTER is followed by a CACHE_SNAPSHOT of the recovered files. Hosts
 * ({@link io.locus.agent.AgentHost} with {@link RealAgents}) start the inner agent themselves.
 */
public final class RealAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RealAgent.class);

  private final RealAgentConfig config;
  private final NodeAgent agent;
  private final DiskCache disk;
  private final ProcessTaskExecutor executor;
  private final TransferStats transfers;
  private final PeerEndpoints peers;
  private final AgentHttpServer http;
  private final ExecutorService transferPool;
  private final ExecutorService quickPool;
  private final ExecutorService launcherPool;
  private final DiskCache.Scan recovered;
  private boolean closed;

  private RealAgent(RealAgentConfig config, AgentScheduler scheduler, AgentOutput output,
      PeerEndpoints peers, HttpClient httpClient) {
    this.config = config;
    this.peers = peers;
    String node = config.nodeId();
    this.transfers = new TransferStats();
    this.disk = new DiskCache(config.cacheDir());
    HttpSettings h = config.http();
    this.http = AgentHttpServer.start(h.bind(), h.port(), h.advertisedUrl(), h.threads(), node);
    this.transferPool = Executors.newFixedThreadPool(config.storage().maxConcurrentTransfers(),
        daemon("locus-agent-" + node + "-transfer"));
    this.quickPool = Executors.newFixedThreadPool(2, daemon("locus-agent-" + node + "-io"));
    this.launcherPool = Executors.newCachedThreadPool(daemon("locus-agent-" + node + "-proc"));
    try {
      StorageLocations storage = config.storage().locations();
      PeerAuth auth = config.signer() == null ? null : new PeerAuth(config.signer());
      HttpClient client = httpClient != null ? httpClient : httpClient(config);
      StorageSettings s = config.storage();
      RealStager stager = new RealStager(node, disk, storage, peers, client, transferPool,
          quickPool, scheduler, transfers, auth, s.requestTimeout(), s.transferTimeout(),
          s.attempts());
      this.executor = new ProcessTaskExecutor(config, disk, launcherPool, scheduler);
      this.agent = new NodeAgent(config.agent(), scheduler, stager, executor, output, http.url(),
          disk, new RealDecisionGuard(config, disk, storage),
          StateFiles.in(config.work().dir()).identity(config.nodeSigner()));
      http.bind(disk, agent::holds, this::metrics, this::health, auth, transfers);
      // Recover the cache of a previous run before registering: its files are announced by the
      // CACHE_SNAPSHOT that follows REGISTER.
      this.recovered = disk.scan();
      for (DiskCache.Entry e : recovered.files()) {
        agent.preload(e.fileId(), e.bytes());
      }
      if (!recovered.files().isEmpty() || recovered.partialsDropped() > 0) {
        LOG.info("{}: recovered {} cached files ({} bytes kept), dropped {} partial downloads",
            node, recovered.files().size(), agent.stats().cacheUsedBytes(),
            recovered.partialsDropped());
      }
    } catch (RuntimeException | Error e) {
      http.close();
      transferPool.shutdownNow();
      quickPool.shutdownNow();
      launcherPool.shutdownNow();
      throw e;
    }
  }

  /** An HTTP client for storage and peer reads: no redirects (see {@link RealStager}). */
  public static HttpClient httpClient(RealAgentConfig config) {
    return HttpClient.newBuilder()
        .connectTimeout(config.storage().requestTimeout())
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  /**
   * Builds the agent (not started).
   *
   * @param peers the peer directory; this agent's own endpoint is not added (hosts do that)
   * @param httpClient shared client, or null for one of its own
   */
  public static RealAgent create(RealAgentConfig config, AgentScheduler scheduler,
      AgentOutput output, PeerEndpoints peers, HttpClient httpClient) {
    if (AgentConfig.TEMPLATE_NODE.equals(config.nodeId())) {
      throw new IllegalArgumentException("a real agent needs a node id (node-id)");
    }
    if (config.cacheDir() == null || config.work().dir() == null) {
      throw new IllegalArgumentException("a real agent needs its directories (cache.dir and"
          + " work.dir, or data-dir)");
    }
    return new RealAgent(config, scheduler, output, peers, httpClient);
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.getAndIncrement());
      t.setDaemon(true);
      return t;
    };
  }

  /** Registers (REGISTER, then CACHE_SNAPSHOT when files were recovered) and starts heartbeats. */
  public void start() {
    agent.start();
  }

  public String nodeId() {
    return config.nodeId();
  }

  public RealAgentConfig config() {
    return config;
  }

  public NodeAgent agent() {
    return agent;
  }

  /** Where peers fetch this node's cache. */
  public String endpoint() {
    return http.url();
  }

  public int httpPort() {
    return http.port();
  }

  public DiskCache cache() {
    return disk;
  }

  public ProcessTaskExecutor executor() {
    return executor;
  }

  public TransferStats transfers() {
    return transfers;
  }

  public PeerEndpoints peers() {
    return peers;
  }

  public AgentStats stats() {
    return agent.stats();
  }

  /** What the start-up rescan found. */
  public DiskCache.Scan recovered() {
    return recovered;
  }

  private String health() {
    if (agent.isClosed()) {
      return "stopped";
    }
    String problem = agent.problem();
    if (problem != null) {
      return problem;
    }
    return agent.isDraining() ? "draining" : "ok";
  }

  /** This agent's metrics in Prometheus text format. */
  public String metrics() {
    AgentStats s = agent.stats();
    Map<String, Long> refusals = agent.refusals();
    String l = "pool=\"" + esc(config.pool()) + "\",node=\"" + esc(nodeId()) + "\"";
    StringBuilder b = new StringBuilder(4096);
    counter(b, "locus_agent_tasks_total", "Task events emitted, by type.");
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"started\"} ")
        .append(s.tasksStarted()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"completed\"} ")
        .append(s.tasksCompleted()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"failed\"} ")
        .append(s.tasksFailed()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"refused\"} ")
        .append(s.tasksRefused()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"suspended\"} ")
        .append(s.tasksSuspended()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"shrunk\"} ")
        .append(s.shrinksAcknowledged()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"withdrawn\"} ")
        .append(s.tasksWithdrawn()).append('\n');
    b.append("locus_agent_tasks_total{").append(l).append(",type=\"preempted\"} ")
        .append(s.tasksPreempted()).append('\n');
    counter(b, "locus_agent_events_processed_total",
        "Events of event-range tasks processed (batches that exited 0).");
    b.append("locus_agent_events_processed_total{").append(l).append("} ")
        .append(s.eventsProcessed()).append('\n');
    gauge(b, "locus_agent_tasks_running", "Tasks running now.", l, s.running());
    gauge(b, "locus_agent_slots", "Tasks that may run at once.", l, config.agent().slots());
    gauge(b, "locus_agent_queued_tasks", "Placements waiting in the local queue.", l, s.queued());
    gauge(b, "locus_agent_queue_depth", "Placements the local queue holds at most.", l,
        config.agent().queueDepth());
    counter(b, "locus_agent_input_bytes_total",
        "Input bytes of tasks, by where they were read (each input counted once).");
    b.append("locus_agent_input_bytes_total{").append(l).append(",source=\"local\"} ")
        .append(s.bytesLocal()).append('\n');
    b.append("locus_agent_input_bytes_total{").append(l).append(",source=\"peer\"} ")
        .append(s.bytesPeer()).append('\n');
    b.append("locus_agent_input_bytes_total{").append(l).append(",source=\"storage\"} ")
        .append(s.bytesStorage()).append('\n');
    counter(b, "locus_agent_transfer_bytes_total",
        "Bytes moved by transfers, by source (retries and failed transfers included).");
    for (FetchSource src : new FetchSource[] {FetchSource.PEER, FetchSource.STORAGE}) {
      b.append("locus_agent_transfer_bytes_total{").append(l).append(",source=\"")
          .append(src.name().toLowerCase(Locale.ROOT)).append("\"} ")
          .append(transfers.bytes(src)).append('\n');
    }
    counter(b, "locus_agent_transfers_total", "Transfers and local-hit checks, by source and outcome.");
    for (FetchSource src : FetchSource.values()) {
      String sl = l + ",source=\"" + src.name().toLowerCase(Locale.ROOT) + "\"";
      b.append("locus_agent_transfers_total{").append(sl).append(",outcome=\"done\"} ")
          .append(transfers.completed(src)).append('\n');
      b.append("locus_agent_transfers_total{").append(sl).append(",outcome=\"not_found\"} ")
          .append(transfers.notFound(src)).append('\n');
      b.append("locus_agent_transfers_total{").append(sl).append(",outcome=\"failed\"} ")
          .append(transfers.failed(src)).append('\n');
    }
    gauge(b, "locus_agent_transfers_active", "Transfers running now.", l, transfers.active());
    counter(b, "locus_agent_transfers_resumed_total",
        "HTTP transfers resumed with a range request.");
    b.append("locus_agent_transfers_resumed_total{").append(l).append("} ")
        .append(transfers.resumed()).append('\n');
    counter(b, "locus_agent_peer_fallbacks_total",
        "Peer reads that found the hint stale and read storage instead.");
    b.append("locus_agent_peer_fallbacks_total{").append(l).append("} ")
        .append(s.peerFallbacks()).append('\n');
    counter(b, "locus_agent_peer_served_bytes_total", "Bytes this node served to peers.");
    b.append("locus_agent_peer_served_bytes_total{").append(l).append("} ")
        .append(transfers.servedBytes()).append('\n');
    counter(b, "locus_agent_peer_requests_total", "Peer requests served, by outcome.");
    b.append("locus_agent_peer_requests_total{").append(l).append(",outcome=\"ok\"} ")
        .append(transfers.servedOk()).append('\n');
    b.append("locus_agent_peer_requests_total{").append(l).append(",outcome=\"not_found\"} ")
        .append(transfers.servedNotFound()).append('\n');
    b.append("locus_agent_peer_requests_total{").append(l).append(",outcome=\"denied\"} ")
        .append(transfers.servedDenied()).append('\n');
    gauge(b, "locus_agent_cache_used_bytes", "Bytes in the cache.", l, s.cacheUsedBytes());
    gauge(b, "locus_agent_cache_capacity_bytes", "The cache quota.", l,
        config.agent().cacheCapacityBytes());
    gauge(b, "locus_agent_cache_files", "Files in the cache.", l, s.cacheFiles());
    counter(b, "locus_agent_evictions_on_request_total", "Files removed by EvictFiles.");
    b.append("locus_agent_evictions_on_request_total{").append(l).append("} ")
        .append(s.filesEvictedOnRequest()).append('\n');
    counter(b, "locus_agent_evictions_refused_total",
        "EvictFiles entries refused because a running task needs the file.");
    b.append("locus_agent_evictions_refused_total{").append(l).append("} ")
        .append(s.evictionsRefused()).append('\n');
    counter(b, "locus_agent_outputs_total",
        "Outputs of completed tasks, by whether they were cached.");
    b.append("locus_agent_outputs_total{").append(l).append(",result=\"cached\"} ")
        .append(s.outputsCached()).append('\n');
    b.append("locus_agent_outputs_total{").append(l).append(",result=\"not_cached\"} ")
        .append(s.outputsNotCached()).append('\n');
    counter(b, "locus_agent_output_bytes_total", "Bytes of the outputs cached.");
    b.append("locus_agent_output_bytes_total{").append(l).append("} ")
        .append(s.outputBytesCached()).append('\n');
    counter(b, "locus_agent_refusals_total", "Decisions refused, by reason.");
    refusals.forEach((k, v) -> b.append("locus_agent_refusals_total{").append(l)
        .append(",reason=\"").append(esc(k)).append("\"} ").append(v).append('\n'));
    counter(b, "locus_agent_decisions_total", "Decisions dropped before acting, by why.");
    b.append("locus_agent_decisions_total{").append(l).append(",kind=\"duplicate\"} ")
        .append(s.duplicateDecisions()).append('\n');
    b.append("locus_agent_decisions_total{").append(l).append(",kind=\"ignored\"} ")
        .append(s.ignoredDecisions()).append('\n');
    b.append("locus_agent_decisions_total{").append(l).append(",kind=\"duplicate_answered\"} ")
        .append(s.duplicatesAnswered()).append('\n');
    b.append("locus_agent_decisions_total{").append(l).append(",kind=\"other_instance\"} ")
        .append(s.foreignDecisions()).append('\n');
    b.append("locus_agent_decisions_total{").append(l).append(",kind=\"absurd_epoch\"} ")
        .append(s.absurdEpochs()).append('\n');
    b.append("locus_agent_decisions_total{").append(l).append(",kind=\"resync\"} ")
        .append(s.resyncs()).append('\n');
    gauge(b, "locus_agent_draining", "1 while draining.", l, agent.isDraining() ? 1 : 0);
    return b.toString();
  }

  private static void counter(StringBuilder b, String name, String help) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" counter\n");
  }

  private static void gauge(StringBuilder b, String name, String help, String labels, long v) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" gauge\n");
    b.append(name).append('{').append(labels).append("} ").append(v).append('\n');
  }

  private static String esc(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /**
   * Drains (see {@link NodeAgent#drain()}) and waits up to {@code timeout} for LEAVE.
   *
   * @return true when the agent left within the timeout
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    try {
      agent.drain().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Stops: running tasks FAILED "agent stopped" and their processes stopped (SIGTERM, then
   * SIGKILL after the kill grace), LEAVE, the HTTP server and the pools closed, partial downloads
   * removed. Cached files stay for the next start.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    agent.close();
    executor.stopAll();
    transferPool.shutdownNow();
    quickPool.shutdownNow();
    launcherPool.shutdownNow();
    try {
      transferPool.awaitTermination(5, TimeUnit.SECONDS);
      quickPool.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    http.close();
    disk.dropIncoming();   // nothing landed now will be claimed
  }
}
