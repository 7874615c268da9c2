package io.locus.agent.real;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.locus.agent.AgentConfig;
import io.locus.agent.security.DecisionSigner;
import io.locus.agent.security.Secrets;
import io.locus.agent.HostConfig;
import io.locus.kafka.ClientConfigs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a real agent's YAML config file ({@code locus-agent real --config agent.yaml}); the keys
 * are documented in node-agent/README.md. JSON is YAML too, so a JSON file works as well.
 *
 * <p>Strict: an unknown key is an error naming it (a typo must not silently fall back to a
 * default). Relative paths are relative to the config file's directory. Sizes are bytes, or a number
 * with a unit (KB, MB, GB, TB decimal; KiB, MiB, GiB, TiB binary). Durations are ISO-8601
 * ({@code PT30S}) or a number with ms, s, m, h or d ({@code 30s}).
 */
public final class AgentConfigFile {
  private static final Pattern SIZE = Pattern.compile(
      "\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kmgt]i?b|b)?\\s*", Pattern.CASE_INSENSITIVE);
  private static final Pattern DURATION = Pattern.compile(
      "\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h|d)\\s*", Pattern.CASE_INSENSITIVE);

  /**
   * What a config file holds: the agent, and how to reach Kafka.
   *
   * @param bootstrapServers null when the file has none (the command line must give it)
   * @param clientOverrides Kafka client settings from {@code kafka.properties-file}
   */
  public record Loaded(RealAgentConfig agent, String bootstrapServers,
      Map<String, String> clientOverrides, boolean readCommitted, HostConfig.StartFrom startFrom,
      boolean createTopics, Duration peerLookback) {

    /** A host of this one agent, with the given bootstrap servers (null: the file's). */
    public HostConfig hostConfig(String bootstrapOverride) {
      String bootstrap = bootstrapOverride != null ? bootstrapOverride : bootstrapServers;
      if (bootstrap == null) {
        throw new IllegalArgumentException(
            "no Kafka bootstrap servers: set kafka.bootstrap-servers or --bootstrap-servers");
      }
      return HostConfig.builder(bootstrap)
          .nodeIds(List.of(agent.nodeId()))
          .readCommitted(readCommitted)
          .startFrom(startFrom)
          .ensureTopics(createTopics)
          .clientOverrides(clientOverrides)
          .build();
    }

    /** The factory of this one agent, with its own directories and port. */
    public RealAgents agents() {
      return new RealAgents(agent, null, peerLookback);
    }
  }

  private static final Set<String> TOP_KEYS = Set.of("pool", "node-id", "slots", "heartbeat",
      "eviction", "dedupe-window", "data-dir", "cache", "work", "storage", "http", "peers",
      "security", "tasks", "templates", "default-template", "drain-timeout", "kafka");

  private AgentConfigFile() {}

  /** Reads and validates {@code file}; {@code nodeIdOverride} (may be null) replaces node-id. */
  public static Loaded load(Path file, String nodeIdOverride) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the agent config " + file, e);
    }
    Path base = file.toAbsolutePath().getParent();
    try {
      return parse(text, base, nodeIdOverride);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Parses config text; relative paths resolve against {@code base}. */
  public static Loaded parse(String text, Path base, String nodeIdOverride) {
    JsonNode root;
    try {
      root = new YAMLMapper().readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException("not valid YAML: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("the config must be a mapping of keys to values");
    }
    Obj top = new Obj("", (ObjectNode) root, base);
    // Top-level typos first: a misspelt section would otherwise surface as "x is required".
    Set<String> unknown = new TreeSet<>();
    root.fieldNames().forEachRemaining(f -> {
      if (!TOP_KEYS.contains(f)) {
        unknown.add(f);
      }
    });
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown key" + (unknown.size() > 1 ? "s " : " ")
          + unknown + "; known: " + new TreeSet<>(TOP_KEYS));
    }

    String pool = top.str("pool", null);
    if (pool == null) {
      throw new IllegalArgumentException("pool is required");
    }
    String fileNode = top.str("node-id", null);
    String node = nodeIdOverride != null ? nodeIdOverride : fileNode;
    if (node == null) {
      node = hostName();
    }
    AgentConfig.Builder ab = AgentConfig.builder(pool, node);
    ab.slots(top.integer("slots", AgentConfig.DEFAULT_SLOTS));
    ab.heartbeatMs(top.duration("heartbeat", Duration.ofMillis(AgentConfig.DEFAULT_HEARTBEAT_MS))
        .toMillis());
    ab.evictionPolicy(top.str("eviction", "LRU"));
    ab.dedupeWindow(top.integer("dedupe-window", AgentConfig.DEFAULT_DEDUPE_WINDOW));

    Path dataDir = top.path("data-dir", null);
    Obj cache = top.obj("cache");
    Path cacheDir = cache.path("dir", dataDir == null ? null : dataDir.resolve("cache"));
    if (cacheDir == null) {
      throw new IllegalArgumentException("cache.dir (or data-dir) is required");
    }
    ab.cacheCapacityBytes(cache.size("quota", AgentConfig.DEFAULT_CACHE_BYTES));
    cache.done();

    RealAgentConfig.Builder b = RealAgentConfig.builder(ab.build());
    b.cacheDir(cacheDir);
    Obj work = top.obj("work");
    b.workDir(work.path("dir", dataDir != null ? dataDir.resolve("work")
        : cacheDir.toAbsolutePath().normalize().resolveSibling("work")));
    b.keepWorkDirs(work.integer("keep", 20));
    work.done();

    Obj storage = top.obj("storage");
    String root0 = storage.str("root", null);
    b.storageRoot(root0 == null ? null : storageUri(root0, base));
    b.allowedLocations(storage.strList("allowed-locations").stream()
        .map(s -> storageUri(s, base).toString()).toList());
    b.maxTransfers(storage.integer("max-concurrent-transfers", 4));
    b.transferAttempts(storage.integer("attempts", 3));
    b.requestTimeout(storage.duration("request-timeout", Duration.ofSeconds(30)));
    b.transferTimeout(storage.duration("transfer-timeout", Duration.ofMinutes(30)));
    storage.done();

    Obj http = top.obj("http");
    b.httpBind(http.str("bind", "127.0.0.1"));
    b.httpPort(http.integer("port", 0));
    b.advertisedUrl(http.str("advertised-url", null));
    b.httpThreads(http.integer("threads", 4));
    http.done();

    Obj peers = top.obj("peers");
    Duration lookback = peers.duration("lookback", Duration.ofMinutes(2));
    b.staticPeers(peers.strMap("static"));
    peers.done();

    Obj security = top.obj("security");
    Path secret = security.path("secret-file", null);
    if (secret != null) {
      b.signer(new DecisionSigner(Secrets.read(secret)));
    }
    security.done();

    Obj tasks = top.obj("tasks");
    b.taskTimeout(tasks.duration("timeout", Duration.ofHours(1)));
    b.killGrace(tasks.duration("kill-grace", Duration.ofSeconds(5)));
    b.stderrTailBytes((int) tasks.size("stderr-tail-bytes", 2000));
    b.inheritEnv(tasks.bool("inherit-env", false));
    b.taskEnv(tasks.strMap("env"));
    b.eventBatch(tasks.integer("event-batch", RealAgentConfig.DEFAULT_EVENT_BATCH));
    tasks.done();

    Obj templates = top.obj("templates");
    Map<String, TaskTemplate> ts = new LinkedHashMap<>();
    for (String name : templates.keys()) {
      Obj t = templates.obj(name);
      List<String> command = t.strList("command");
      if (command.isEmpty()) {
        throw new IllegalArgumentException("templates." + name + ".command is required");
      }
      String pattern = t.str("arg-pattern", null);
      try {
        ts.put(name, new TaskTemplate(name, command, t.duration("timeout", null),
            t.strMap("env"), t.integer("max-args", TaskTemplate.DEFAULT_MAX_ARGS),
            pattern == null ? null : Pattern.compile(pattern)));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException("templates." + name + ".arg-pattern: "
            + e.getDescription());
      }
      t.done();
    }
    b.templates(ts);
    b.defaultTemplate(top.str("default-template", null));
    b.drainTimeout(top.duration("drain-timeout", Duration.ofMinutes(5)));

    Obj kafka = top.obj("kafka");
    String bootstrap = kafka.str("bootstrap-servers", null);
    Path props = kafka.path("properties-file", null);
    Map<String, String> overrides = new TreeMap<>();
    if (props != null) {
      Properties p = ClientConfigs.withOverrides(new Properties(), props);
      p.stringPropertyNames().forEach(k -> overrides.put(k, p.getProperty(k)));
    }
    boolean readCommitted = kafka.bool("read-committed", true);
    String from = kafka.str("start-from", "latest");
    HostConfig.StartFrom startFrom;
    try {
      startFrom = HostConfig.StartFrom.valueOf(from.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("kafka.start-from must be latest or earliest, not "
          + from);
    }
    boolean createTopics = kafka.bool("create-topics", true);
    kafka.done();
    top.done();
    return new Loaded(b.build(), bootstrap, overrides, readCommitted, startFrom, createTopics,
        lookback);
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("node-id is not set and the host name is unknown");
    }
  }

  /** A storage URI; a bare path means a file: URI (relative to the config's directory). */
  private static URI storageUri(String s, Path base) {
    if (s.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return URI.create(s);
    }
    return base.resolve(s).toAbsolutePath().normalize().toUri();
  }

  /** Parses a size: bytes, or a number with a decimal or binary unit. */
  public static long parseSize(String s) {
    Matcher m = SIZE.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size: '" + s
          + "' (bytes, or e.g. 500MB, 50GB, 1.5GiB)");
    }
    BigDecimal n = new BigDecimal(m.group(1));
    String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
    long mult = switch (unit) {
      case "b" -> 1L;
      case "kb" -> 1_000L;
      case "mb" -> 1_000_000L;
      case "gb" -> 1_000_000_000L;
      case "tb" -> 1_000_000_000_000L;
      case "kib" -> 1L << 10;
      case "mib" -> 1L << 20;
      case "gib" -> 1L << 30;
      case "tib" -> 1L << 40;
      default -> throw new IllegalArgumentException("unknown size unit " + unit);
    };
    return n.multiply(BigDecimal.valueOf(mult)).longValueExact();
  }

  /** Parses a duration: ISO-8601 (PT30S) or a number with ms, s, m, h or d. */
  public static Duration parseDuration(String s) {
    if (s.trim().toUpperCase(Locale.ROOT).startsWith("P")) {
      try {
        return Duration.parse(s.trim().toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("not a duration: '" + s + "'");
      }
    }
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: '" + s
          + "' (e.g. 500ms, 30s, 5m, 1h, PT30S)");
    }
    BigDecimal n = new BigDecimal(m.group(1));
    long ms = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "ms" -> 1L;
      case "s" -> 1_000L;
      case "m" -> 60_000L;
      case "h" -> 3_600_000L;
      case "d" -> 86_400_000L;
      default -> throw new IllegalArgumentException(s);
    };
    return Duration.ofMillis(n.multiply(BigDecimal.valueOf(ms)).longValue());
  }

  /** One mapping of the file, remembering which keys were read. */
  private static final class Obj {
    final String path;
    final ObjectNode node;
    final Path base;
    final Set<String> used = new LinkedHashSet<>();

    Obj(String path, ObjectNode node, Path base) {
      this.path = path;
      this.node = node;
      this.base = base;
    }

    private String key(String k) {
      return path.isEmpty() ? k : path + "." + k;
    }

    private JsonNode get(String k) {
      used.add(k);
      JsonNode v = node.get(k);
      return v == null || v.isNull() ? null : v;
    }

    List<String> keys() {
      List<String> out = new ArrayList<>();
      node.fieldNames().forEachRemaining(out::add);
      return out;
    }

    String str(String k, String def) {
      JsonNode v = get(k);
      if (v == null) {
        return def;
      }
      if (!v.isValueNode()) {
        throw new IllegalArgumentException(key(k) + " must be a single value");
      }
      return v.asText();
    }

    int integer(String k, int def) {
      JsonNode v = get(k);
      if (v == null) {
        return def;
      }
      if (v.isInt() || (v.isTextual() && v.asText().trim().matches("-?[0-9]+"))) {
        return Integer.parseInt(v.asText().trim());
      }
      throw new IllegalArgumentException(key(k) + " must be a whole number, not " + v);
    }

    boolean bool(String k, boolean def) {
      JsonNode v = get(k);
      if (v == null) {
        return def;
      }
      if (v.isBoolean()) {
        return v.asBoolean();
      }
      throw new IllegalArgumentException(key(k) + " must be true or false, not " + v);
    }

    long size(String k, long def) {
      JsonNode v = get(k);
      if (v == null) {
        return def;
      }
      if (v.isIntegralNumber()) {
        return v.asLong();
      }
      try {
        return parseSize(v.asText());
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new IllegalArgumentException(key(k) + ": " + e.getMessage());
      }
    }

    Duration duration(String k, Duration def) {
      String s = str(k, null);
      if (s == null) {
        return def;
      }
      try {
        return parseDuration(s);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(key(k) + ": " + e.getMessage());
      }
    }

    Path path(String k, Path def) {
      String s = str(k, null);
      return s == null ? def : base.resolve(s).normalize();
    }

    Obj obj(String k) {
      JsonNode v = get(k);
      if (v == null) {
        return new Obj(key(k), JsonNodeFactory.instance.objectNode(), base);
      }
      if (!v.isObject()) {
        throw new IllegalArgumentException(key(k) + " must be a mapping");
      }
      return new Obj(key(k), (ObjectNode) v, base);
    }

    List<String> strList(String k) {
      JsonNode v = get(k);
      if (v == null) {
        return List.of();
      }
      if (!v.isArray()) {
        throw new IllegalArgumentException(key(k) + " must be a list, e.g. [a, b]");
      }
      List<String> out = new ArrayList<>();
      for (JsonNode e : v) {
        if (!e.isValueNode() || e.isNull()) {
          throw new IllegalArgumentException(key(k) + " must hold plain values");
        }
        out.add(e.asText());
      }
      return out;
    }

    Map<String, String> strMap(String k) {
      JsonNode v = get(k);
      if (v == null) {
        return Map.of();
      }
      if (!v.isObject()) {
        throw new IllegalArgumentException(key(k) + " must be a mapping");
      }
      Map<String, String> out = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isValueNode() || e.getValue().isNull()) {
          throw new IllegalArgumentException(key(k) + "." + e.getKey() + " must be a value");
        }
        out.put(e.getKey(), e.getValue().asText());
      }
      return out;
    }

    /** Fails on keys nobody read: typos. */
    void done() {
      Set<String> unknown = new TreeSet<>();
      node.fieldNames().forEachRemaining(f -> {
        if (!used.contains(f)) {
          unknown.add(f);
        }
      });
      if (!unknown.isEmpty()) {
        throw new IllegalArgumentException("unknown key" + (unknown.size() > 1 ? "s " : " ")
            + unknown.stream().map(this::key).toList() + "; known here: " + used);
      }
    }
  }
}
