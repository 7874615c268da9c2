package io.locus.agent.real;

import io.locus.agent.AgentConfig;
import io.locus.agent.security.DecisionSigner;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of one real agent (files, processes, HTTP). Build with {@link #builder(String)} or read
 * a config file with {@link AgentConfigFile}; the file's keys are given in brackets.
 *
 * @param agent the settings shared with the simulated mode: pool, node id, slots, cache quota,
 *     heartbeat, eviction policy, dedupe window (its bandwidths and time scale are not used)
 * @param cacheDir [cache.dir] the cache directory (may be null in a host's template, whose
 *     {@link #forNode} sets it)
 * @param workDir [work.dir] where task work directories go (likewise)
 * @param storageRoot [storage.root] default storage for inputs without a location: file: or
 *     http(s):, joined with the file id; null: every input needs a location
 * @param allowedLocations [storage.allowed-locations] URI prefixes a plan's location must start
 *     with; empty: the storage root
 * @param maxTransfers [storage.max-concurrent-transfers] transfers (peer and storage) at once
 * @param transferAttempts [storage.attempts] tries of an HTTP transfer (resumed by range)
 * @param requestTimeout [storage.request-timeout] connect and response-header timeout
 * @param transferTimeout [storage.transfer-timeout] longest a single transfer may take
 * @param httpBind [http.bind] address of the peer and metrics server
 * @param httpPort [http.port] its port; 0: any free port
 * @param advertisedUrl [http.advertised-url] the URL peers use (reported as the endpoint); null:
 *     http://bind:port, with the host name when bound to a wildcard address
 * @param httpThreads [http.threads] threads serving peers and metrics
 * @param templates [templates] the allow-listed task templates by name
 * @param defaultTemplate [default-template] template for decisions that name none; null: refuse
 * @param taskEnv [tasks.env] environment variables for every task
 * @param inheritEnv [tasks.inherit-env] start tasks with the agent's environment (default false:
 *     a clean one)
 * @param taskTimeout [tasks.timeout] a task's time limit when its template has none
 * @param killGrace [tasks.kill-grace] between SIGTERM and SIGKILL when a task is stopped
 * @param stderrTailBytes [tasks.stderr-tail-bytes] how much of stderr goes into the task event
 * @param keepWorkDirs [work.keep] finished work directories kept
 * @param signer [security.secret-file] verifies decision signatures; null: unsigned decisions
 *     are accepted
 * @param staticPeers [peers.static] node → endpoint, besides those learnt from node-reports
 * @param drainTimeout [drain-timeout] how long a graceful drain waits for running tasks
 * @param eventBatch [tasks.event-batch] events per process of an event-range task: the task runs
 *     its template once per batch; a suspend loses the batch in progress, a shrink lets it finish
 */
public record RealAgentConfig(
    AgentConfig agent,
    Path cacheDir,
    Path workDir,
    URI storageRoot,
    List<String> allowedLocations,
    int maxTransfers,
    int transferAttempts,
    Duration requestTimeout,
    Duration transferTimeout,
    String httpBind,
    int httpPort,
    String advertisedUrl,
    int httpThreads,
    Map<String, TaskTemplate> templates,
    String defaultTemplate,
    Map<String, String> taskEnv,
    boolean inheritEnv,
    Duration taskTimeout,
    Duration killGrace,
    int stderrTailBytes,
    int keepWorkDirs,
    DecisionSigner signer,
    Map<String, String> staticPeers,
    Duration drainTimeout,
    int eventBatch) {

  /** Events per process of an event-range task unless configured. */
  public static final int DEFAULT_EVENT_BATCH = 1000;

  public RealAgentConfig {
    Objects.requireNonNull(agent, "agent");
    // A host template (node id "*") may leave the directories to the host (see forNode).
    if (!AgentConfig.TEMPLATE_NODE.equals(agent.nodeId())) {
      Objects.requireNonNull(cacheDir, "cacheDir (cache.dir)");
      Objects.requireNonNull(workDir, "workDir (work.dir)");
    }
    Objects.requireNonNull(httpBind, "httpBind");
    allowedLocations = List.copyOf(allowedLocations);
    templates = Map.copyOf(templates);
    taskEnv = Map.copyOf(taskEnv);
    staticPeers = Map.copyOf(staticPeers);
    if (maxTransfers < 1 || transferAttempts < 1 || httpThreads < 1) {
      throw new IllegalArgumentException(
          "max-concurrent-transfers, attempts and http.threads must be >= 1");
    }
    if (httpPort < 0 || httpPort > 65535) {
      throw new IllegalArgumentException("http.port must be 0..65535, got " + httpPort);
    }
    if (eventBatch < 1) {
      throw new IllegalArgumentException("tasks.event-batch must be >= 1, got " + eventBatch);
    }
    if (stderrTailBytes < 0 || keepWorkDirs < 0) {
      throw new IllegalArgumentException("stderr-tail-bytes and work.keep must be >= 0");
    }
    for (Duration d : List.of(requestTimeout, transferTimeout, taskTimeout, killGrace,
        drainTimeout)) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("timeouts must be positive durations");
      }
    }
    templates.forEach((name, t) -> {
      if (!name.equals(t.name())) {
        throw new IllegalArgumentException("template key " + name + " names template " + t.name());
      }
    });
    if (defaultTemplate != null && !templates.containsKey(defaultTemplate)) {
      throw new IllegalArgumentException("default-template " + defaultTemplate
          + " is not one of the templates " + templates.keySet());
    }
    if (cacheDir != null && workDir != null
        && cacheDir.toAbsolutePath().normalize().equals(workDir.toAbsolutePath().normalize())) {
      throw new IllegalArgumentException("cache.dir and work.dir must differ");
    }
    // Fails early on a bad root or prefix.
    new StorageLocations(storageRoot, allowedLocations);
    new PeerEndpoints(staticPeers);
  }

  public String nodeId() {
    return agent.nodeId();
  }

  public String pool() {
    return agent.pool();
  }

  /**
   * This config for one of several agents of a host: its node id, its own cache and work
   * directories under {@code nodeDir}, any free port and no fixed advertised URL.
   */
  public RealAgentConfig forNode(String nodeId, Path nodeDir) {
    return toBuilder()
        .agent(agent.withNodeId(nodeId))
        .cacheDir(nodeDir.resolve("cache"))
        .workDir(nodeDir.resolve("work"))
        .httpPort(0)
        .advertisedUrl(null)
        .build();
  }

  /** Defaults: 2 slots, 1 GB cache, LRU, 1 s heartbeats (see {@link AgentConfig}). */
  public static Builder builder(String pool) {
    return new Builder(AgentConfig.builder(pool).build());
  }

  public static Builder builder(AgentConfig agent) {
    return new Builder(agent);
  }

  public Builder toBuilder() {
    Builder b = new Builder(agent);
    b.cacheDir = cacheDir;
    b.workDir = workDir;
    b.storageRoot = storageRoot;
    b.allowedLocations = allowedLocations;
    b.maxTransfers = maxTransfers;
    b.transferAttempts = transferAttempts;
    b.requestTimeout = requestTimeout;
    b.transferTimeout = transferTimeout;
    b.httpBind = httpBind;
    b.httpPort = httpPort;
    b.advertisedUrl = advertisedUrl;
    b.httpThreads = httpThreads;
    b.templates = new LinkedHashMap<>(templates);
    b.defaultTemplate = defaultTemplate;
    b.taskEnv = taskEnv;
    b.inheritEnv = inheritEnv;
    b.taskTimeout = taskTimeout;
    b.killGrace = killGrace;
    b.stderrTailBytes = stderrTailBytes;
    b.keepWorkDirs = keepWorkDirs;
    b.signer = signer;
    b.staticPeers = staticPeers;
    b.drainTimeout = drainTimeout;
    b.eventBatch = eventBatch;
    return b;
  }

  /** Mutable builder with the documented defaults. */
  public static final class Builder {
    private AgentConfig agent;
    private Path cacheDir;
    private Path workDir;
    private URI storageRoot;
    private List<String> allowedLocations = List.of();
    private int maxTransfers = 4;
    private int transferAttempts = 3;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration transferTimeout = Duration.ofMinutes(30);
    private String httpBind = "127.0.0.1";
    private int httpPort = 0;
    private String advertisedUrl;
    private int httpThreads = 4;
    private Map<String, TaskTemplate> templates = new LinkedHashMap<>();
    private String defaultTemplate;
    private Map<String, String> taskEnv = Map.of();
    private boolean inheritEnv;
    private Duration taskTimeout = Duration.ofHours(1);
    private Duration killGrace = Duration.ofSeconds(5);
    private int stderrTailBytes = 2000;
    private int keepWorkDirs = 20;
    private DecisionSigner signer;
    private Map<String, String> staticPeers = Map.of();
    private Duration drainTimeout = Duration.ofMinutes(5);
    private int eventBatch = DEFAULT_EVENT_BATCH;

    private Builder(AgentConfig agent) {
      this.agent = agent;
    }

    public Builder agent(AgentConfig v) {
      this.agent = v;
      return this;
    }

    public Builder nodeId(String v) {
      this.agent = agent.withNodeId(v);
      return this;
    }

    public Builder slots(int v) {
      this.agent = agent.toBuilder().slots(v).build();
      return this;
    }

    public Builder cacheCapacityBytes(long v) {
      this.agent = agent.toBuilder().cacheCapacityBytes(v).build();
      return this;
    }

    public Builder heartbeatMs(long v) {
      this.agent = agent.toBuilder().heartbeatMs(v).build();
      return this;
    }

    /** Cache in {@code dir/cache}, work directories in {@code dir/work}. */
    public Builder dataDir(Path dir) {
      this.cacheDir = dir.resolve("cache");
      this.workDir = dir.resolve("work");
      return this;
    }

    public Builder cacheDir(Path v) {
      this.cacheDir = v;
      return this;
    }

    public Builder workDir(Path v) {
      this.workDir = v;
      return this;
    }

    public Builder storageRoot(URI v) {
      this.storageRoot = v;
      return this;
    }

    public Builder allowedLocations(List<String> v) {
      this.allowedLocations = v;
      return this;
    }

    public Builder maxTransfers(int v) {
      this.maxTransfers = v;
      return this;
    }

    public Builder transferAttempts(int v) {
      this.transferAttempts = v;
      return this;
    }

    public Builder requestTimeout(Duration v) {
      this.requestTimeout = v;
      return this;
    }

    public Builder transferTimeout(Duration v) {
      this.transferTimeout = v;
      return this;
    }

    public Builder httpBind(String v) {
      this.httpBind = v;
      return this;
    }

    public Builder httpPort(int v) {
      this.httpPort = v;
      return this;
    }

    public Builder advertisedUrl(String v) {
      this.advertisedUrl = v;
      return this;
    }

    public Builder httpThreads(int v) {
      this.httpThreads = v;
      return this;
    }

    public Builder template(TaskTemplate t) {
      this.templates.put(t.name(), t);
      return this;
    }

    /** Adds {@code name} → {@code command} with the template defaults. */
    public Builder template(String name, String... command) {
      return template(TaskTemplate.of(name, List.of(command)));
    }

    public Builder templates(Map<String, TaskTemplate> v) {
      this.templates = new LinkedHashMap<>(v);
      return this;
    }

    public Builder defaultTemplate(String v) {
      this.defaultTemplate = v;
      return this;
    }

    public Builder taskEnv(Map<String, String> v) {
      this.taskEnv = v;
      return this;
    }

    public Builder inheritEnv(boolean v) {
      this.inheritEnv = v;
      return this;
    }

    public Builder taskTimeout(Duration v) {
      this.taskTimeout = v;
      return this;
    }

    public Builder killGrace(Duration v) {
      this.killGrace = v;
      return this;
    }

    public Builder stderrTailBytes(int v) {
      this.stderrTailBytes = v;
      return this;
    }

    public Builder keepWorkDirs(int v) {
      this.keepWorkDirs = v;
      return this;
    }

    public Builder signer(DecisionSigner v) {
      this.signer = v;
      return this;
    }

    public Builder staticPeers(Map<String, String> v) {
      this.staticPeers = v;
      return this;
    }

    public Builder drainTimeout(Duration v) {
      this.drainTimeout = v;
      return this;
    }

    public Builder eventBatch(int v) {
      this.eventBatch = v;
      return this;
    }

    public RealAgentConfig build() {
      return new RealAgentConfig(agent, cacheDir, workDir, storageRoot, allowedLocations,
          maxTransfers, transferAttempts, requestTimeout, transferTimeout, httpBind, httpPort,
          advertisedUrl, httpThreads, templates, defaultTemplate, taskEnv, inheritEnv,
          taskTimeout, killGrace, stderrTailBytes, keepWorkDirs, signer, staticPeers,
          drainTimeout, eventBatch);
    }
  }
}
