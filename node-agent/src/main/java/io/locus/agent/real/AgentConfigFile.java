package io.locus.agent.real;

import io.locus.agent.AgentConfig;
import io.locus.agent.HostConfig;
import io.locus.schemas.units.ByteSize;
import io.locus.agent.config.ConfigException;
import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.KeyLines;
import io.locus.agent.config.Setting;
import io.locus.agent.config.StrictYaml;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.auth.Secrets;
import io.locus.kafka.ClientConfigs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A real agent's YAML config file ({@code locus agent real --config agent.yaml}); the keys are
 * documented in node-agent/README.md. JSON is YAML too, so a JSON file works as well.
 *
 * <p>Read with Jackson ({@link StrictYaml}) into the sections of a {@link RealAgentConfig} and
 * {@link KafkaSettings}, strictly: an unknown key, a key given twice, a value of the wrong type, a
 * negative or out-of-range number, an unknown eviction policy, a size with a unit that is not
 * exact ({@code 12Mb}) are errors that name the key and the line. Relative paths are relative to
 * the file's directory. {@link #checkPaths()} then checks the machine: that storage exists.
 */
public final class AgentConfigFile {
  private final RealAgentConfig agent;
  private final KafkaSettings kafka;
  private final Map<String, String> clientOverrides;
  private final KeyLines lines;
  private final String source;

  private AgentConfigFile(RealAgentConfig agent, KafkaSettings kafka,
      Map<String, String> clientOverrides, KeyLines lines, String source) {
    this.agent = agent;
    this.kafka = kafka;
    this.clientOverrides = clientOverrides;
    this.lines = lines;
    this.source = source;
  }

  /**
   * Reads and validates {@code file}.
   *
   * @param nodeIdOverride replaces node-id (the command line's --node-id); may be null
   * @throws ConfigException naming the file, the line and the key
   * @throws UncheckedIOException when the file cannot be read
   */
  public static AgentConfigFile load(Path file, String nodeIdOverride) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the agent config " + file, e);
    }
    try {
      return parse(text, file.toAbsolutePath().getParent(), nodeIdOverride, file.toString());
    } catch (ConfigException e) {
      throw e.in(file.toString());
    }
  }

  /** Reads config text; relative paths resolve against {@code base}. */
  public static AgentConfigFile parse(String text, Path base, String nodeIdOverride) {
    return parse(text, base, nodeIdOverride, null);
  }

  private static AgentConfigFile parse(String text, Path base, String nodeIdOverride,
      String source) {
    Root root = StrictYaml.read(text, Root.class, base);
    KeyLines lines = KeyLines.of(text);
    if (root.nodeId() != null
        && (root.nodeId().isBlank() || root.nodeId().equals(AgentConfig.TEMPLATE_NODE))) {
      throw lines.error("node-id", "'" + root.nodeId() + "' is not a node id");
    }
    String node = nodeIdOverride != null ? nodeIdOverride
        : root.nodeId() != null ? root.nodeId() : hostName();
    RealAgentConfig agent;
    try {
      agent = root.toAgent(node);
    } catch (InvalidSetting e) {
      throw lines.error(e.key(), e.problem());
    }
    Map<String, String> overrides = new TreeMap<>();
    if (root.kafka.propertiesFile() != null) {
      try {
        Properties p = ClientConfigs.withOverrides(new Properties(), root.kafka.propertiesFile());
        p.stringPropertyNames().forEach(k -> overrides.put(k, p.getProperty(k)));
      } catch (UncheckedIOException e) {
        throw lines.error("kafka.properties-file", e.getMessage());
      }
    }
    return new AgentConfigFile(agent, root.kafka(), Map.copyOf(overrides), lines, source);
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      throw new ConfigException("node-id", 0, "node-id is not set and the host name is unknown");
    }
  }

  // ---- what the file holds ---------------------------------------------------------------------

  public RealAgentConfig agent() {
    return agent;
  }

  public KafkaSettings kafka() {
    return kafka;
  }

  /** kafka.bootstrap-servers; null when the file has none (the command line must give it). */
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** Kafka client settings from kafka.properties-file. */
  public Map<String, String> clientOverrides() {
    return clientOverrides;
  }

  public boolean createTopics() {
    return kafka.createTopics();
  }

  public Duration peerLookback() {
    return agent.peers().lookback();
  }

  /** A host of this one agent, with the given bootstrap servers (null: the file's). */
  public HostConfig hostConfig(String bootstrapOverride) {
    String bootstrap = bootstrapOverride != null ? bootstrapOverride : kafka.bootstrapServers();
    if (bootstrap == null) {
      throw new IllegalArgumentException(
          "no Kafka bootstrap servers: set kafka.bootstrap-servers or --bootstrap-servers");
    }
    return HostConfig.builder(bootstrap)
        .nodeIds(List.of(agent.nodeId()))
        .readCommitted(kafka.readCommitted())
        .startFrom(kafka.startFrom())
        .ensureTopics(kafka.createTopics())
        .clientOverrides(clientOverrides)
        .build();
  }

  /** The factory of this one agent, with its own directories and port. */
  public RealAgents agents() {
    return new RealAgents(agent, null);
  }

  /**
   * Checks what the file names on this machine: a {@code file:} storage root must be a directory
   * the agent can read (else every read from storage would fail later, task by task). An
   * {@code http(s):} root is not contacted.
   *
   * @throws ConfigException naming the key and line
   */
  public void checkPaths() {
    URI root = agent.storage().root();
    if (root == null || !"file".equalsIgnoreCase(root.getScheme())) {
      return;
    }
    Path dir = Path.of(root);
    String problem = !Files.exists(dir) ? dir + " does not exist"
        : !Files.isDirectory(dir) ? dir + " is not a directory"
        : !Files.isReadable(dir) ? dir + " cannot be read by this user" : null;
    if (problem != null) {
      ConfigException e = lines.error("storage.root", problem);
      throw source == null ? e : e.in(source);
    }
  }

  /**
   * Checks that the agent can listen where [http] says, by binding the address and port and
   * letting go at once: a port another process holds (an agent already running there) failed
   * later, in the HTTP server's start, with a stack trace instead of the key and the line. Port 0
   * (any free port) is not checked. Not part of {@link #checkPaths}: {@code --check} of a running
   * agent's own config would find its port taken.
   *
   * @throws ConfigException naming http.port (port in use) or http.bind (an address not of this
   *     machine) and its line
   */
  public void checkPort() {
    HttpSettings h = agent.http();
    if (h.port() == 0) {
      return;
    }
    try (java.net.ServerSocket s = new java.net.ServerSocket()) {
      // As the HTTP server binds (JDK HttpServer sets SO_REUSEADDR too): a port in TIME_WAIT
      // after a restart is not "taken".
      s.setReuseAddress(true);
      s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName(h.bind()), h.port()));
    } catch (java.net.BindException e) {
      String why = String.valueOf(e.getMessage());
      ConfigException c = why.toLowerCase(java.util.Locale.ROOT).contains("in use")
          ? lines.error("http.port", "port " + h.port() + " on " + h.bind()
              + " is in use by another process (another agent?); choose a free port, or 0 for"
              + " any free one")
          : lines.error("http.bind", "cannot listen on " + h.bind() + ":" + h.port() + " ("
              + why + "); bind an address of this machine (0.0.0.0 for all)");
      throw source == null ? c : c.in(source);
    } catch (java.io.IOException e) {
      ConfigException c = lines.error("http.bind", "cannot listen on " + h.bind() + ":"
          + h.port() + " (" + e.getMessage() + ")");
      throw source == null ? c : c.in(source);
    }
  }

  // ---- the file's shape ------------------------------------------------------------------------

  /**
   * The whole file as Jackson binds it, key for key ({@code dedupeWindow} is dedupe-window).
   * Sections check their own values as they are bound; what needs several keys (defaults from
   * data-dir, what is required) is checked by {@link #toAgent} after binding, so that an unknown
   * key is reported before a consequence of it ("slotz" before "slots").
   */
  record Root(String pool, String nodeId, Integer slots, Duration heartbeat, String eviction,
      Integer dedupeWindow, Path dataDir, CacheSection cache, WorkSettings work,
      StorageSettings storage, HttpSettings http, PeerSettings peers, SecuritySection security,
      TaskSettings tasks, Map<String, TemplateSettings> templates, String defaultTemplate,
      Duration drainTimeout, KafkaSettings kafka) {

    Root {
      kafka = Setting.orDefault(kafka, KafkaSettings.DEFAULTS);
    }

    /** The agent's settings, under node {@code node}. */
    RealAgentConfig toAgent(String node) {
      if (pool == null || pool.isBlank()) {
        throw new InvalidSetting("pool", "pool is required: the pool this node serves");
      }
      CacheSection c = Setting.orDefault(cache, new CacheSection(null, null));
      Path cacheDir = c.dir() != null ? c.dir() : dataDir != null ? dataDir.resolve("cache") : null;
      if (cacheDir == null) {
        throw new InvalidSetting("cache.dir", "cache.dir (or data-dir) is required");
      }
      WorkSettings w = Setting.orDefault(work, WorkSettings.DEFAULTS);
      if (w.dir() == null) {
        w = w.withDir(dataDir != null ? dataDir.resolve("work")
            : cacheDir.toAbsolutePath().normalize().resolveSibling("work"));
      }
      TaskSettings t = Setting.orDefault(tasks, TaskSettings.DEFAULTS);
      int nodeSlots = Setting.atLeast("slots", Setting.orDefault(slots, AgentConfig.DEFAULT_SLOTS),
          1);
      AgentConfig agent = AgentConfig.builder(pool, node)
          .queueDepth(t.queueDepthFor(nodeSlots))
          .slots(nodeSlots)
          .heartbeatMs(Math.max(1, Setting.positive("heartbeat", Setting.orDefault(heartbeat,
              Duration.ofMillis(AgentConfig.DEFAULT_HEARTBEAT_MS))).toMillis()))
          .evictionPolicy(evictionPolicy(Setting.orDefault(eviction, "LRU")))
          .dedupeWindow(Setting.atLeast("dedupe-window",
              Setting.orDefault(dedupeWindow, AgentConfig.DEFAULT_DEDUPE_WINDOW), 1))
          .cacheCapacityBytes(c.quota() != null ? c.quota().bytes()
              : AgentConfig.DEFAULT_CACHE_BYTES)
          .build();
      return new RealAgentConfig(agent, cacheDir, w, storage, http, peers, tasks, named(),
          defaultTemplate, signer(), nodeSigner(), drainTimeout);
    }

    private static String evictionPolicy(String name) {
      String problem = AgentConfig.evictionProblem(name);
      if (problem != null) {
        throw new InvalidSetting("eviction", problem);
      }
      return name;
    }

    private Map<String, TaskTemplate> named() {
      Map<String, TaskTemplate> named = new LinkedHashMap<>();
      if (templates != null) {
        templates.forEach((name, t) -> {
          if (t == null) {
            throw new InvalidSetting("templates." + name, "needs a command");
          }
          try {
            named.put(name, t.toTemplate(name));
          } catch (InvalidSetting e) {
            throw e.under("templates." + name);
          }
        });
      }
      return named;
    }

    private RecordSigner signer() {
      if (security == null || security.secretFile() == null) {
        return null;
      }
      try {
        return new RecordSigner(Secrets.read(security.secretFile()));
      } catch (UncheckedIOException | IllegalArgumentException e) {
        throw new InvalidSetting("security.secret-file", e.getMessage());
      }
    }

    private RecordSigner nodeSigner() {
      if (security == null || security.nodeKeyFile() == null) {
        return null;
      }
      try {
        return new RecordSigner(Secrets.readKey(security.nodeKeyFile()));
      } catch (UncheckedIOException | IllegalArgumentException e) {
        throw new InvalidSetting("security.node-key-file", e.getMessage());
      }
    }
  }

  /**
   * [cache]
   *
   * @param dir [cache.dir] the cache directory; the agent owns it
   * @param quota [cache.quota] the bytes of cached files, never exceeded (default 1 GB)
   */
  record CacheSection(Path dir, ByteSize quota) {}

  /**
   * [security]
   *
   * @param secretFile [security.secret-file] the pool's shared secret (decisions, peers, /metrics)
   * @param nodeKeyFile [security.node-key-file] this node's key, as {@code locus agent node-key}
   *     writes it: task events and node reports are signed with it
   */
  record SecuritySection(Path secretFile, Path nodeKeyFile) {}
}
