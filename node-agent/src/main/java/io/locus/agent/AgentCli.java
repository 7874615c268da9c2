package io.locus.agent;

import io.locus.agent.real.AgentConfigFile;
import io.locus.agent.real.RealAgent;
import io.locus.agent.real.RealAgentConfig;
import io.locus.agent.real.StateFiles;
import io.locus.schemas.auth.Secrets;
import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.Preload;
import io.locus.agent.sim.SimMetricsServer;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.cli.EntryPoints;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.limits.Limits;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code locus agent}: runs node agents as a process: {@code sim} (many modelled agents, for scale
 * tests) or {@code real} (one agent staging real files and running real processes). The one
 * spelling is {@code locus agent ...} ({@code LocusCli} adds this as its {@code agent} command);
 * {@link #main} stays for processes started from a class path (the bench, the chaos tests).
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    subcommands = {AgentCli.Sim.class, AgentCli.Real.class, AgentCli.NodeKey.class},
    description = "Locus node agents.")
public final class AgentCli implements Runnable {

  /**
   * A periodic counters line: the time first, in the log lines' format (HH:mm:ss, local time), so
   * that an operator can line it up with the warnings around it, then the command and the
   * counters ({@link AgentStats#line}).
   */
  static String statsLine(String mode, AgentStats s) {
    return java.time.LocalTime.now().format(STATS_TIME) + " " + NAME + " " + mode + ": "
        + s.line();
  }

  private static final java.time.format.DateTimeFormatter STATS_TIME =
      java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss");

  public static void main(String[] args) {
    // Avro refuses to decode generated classes outside trusted packages (TOOLCHAIN gotcha 1); set
    // before any Avro class loads.
    EntryPoints.trustLocusAvro();
    // Before any process starts: the JDK reads the launch mechanism once.
    io.locus.agent.real.ProcessLaunch.apply();
    System.exit(commandLine().execute(args));
  }

  /**
   * {@code locus agent} on its own (the agent distribution's entry point), with the durations and
   * error messages of every Locus entry point.
   */
  public static CommandLine commandLine() {
    return EntryPoints.configure(new CommandLine(new AgentCli()).setCommandName("locus agent"));
  }

  /** Prefix of every message of this command. */
  static final String NAME = "locus agent";

  /** Checks that Kafka answers before anything starts (a wrong address fails in seconds). */
  static boolean reachable(HostConfig cfg, String command) {
    Properties p = ClientConfigs.base(cfg.bootstrapServers());
    cfg.clientOverrides().forEach(p::put);
    try {
      io.locus.kafka.KafkaReachability.check(p, io.locus.kafka.KafkaReachability.DEFAULT_TIMEOUT);
      return true;
    } catch (IllegalStateException e) {
      System.err.println(NAME + " " + command + ": " + e.getMessage());
      return false;
    }
  }

  private static CommandLine commandLine(CommandLine.Model.CommandSpec spec, Object command) {
    return spec != null ? spec.commandLine() : new CommandLine(command);
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: 'locus agent real', 'locus agent sim' or 'locus agent node-key'");
  }

  /** N simulated agents of one pool in this process, until stopped (SIGTERM / Ctrl-C). */
  @Command(name = "sim", mixinStandardHelpOptions = true,
      description = "Run simulated agents (modelled staging and compute) against Kafka.")
  public static final class Sim implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Mixin KafkaClientOptions kafka;

    @Option(names = "--pool", required = true, description = "The agents' pool.")
    String pool;

    @Option(names = "--nodes", defaultValue = "16",
        description = "Number of agents, named PREFIX00, PREFIX01... Default: ${DEFAULT-VALUE}.")
    int nodes;

    @Option(names = "--node-prefix", defaultValue = "node-",
        description = "Prefix of generated node ids. Default: ${DEFAULT-VALUE}.")
    String nodePrefix;

    @Option(names = "--node", paramLabel = "ID",
        description = "Explicit node id, repeatable; replaces --nodes/--node-prefix.")
    List<String> explicitNodes;

    @Option(names = "--slots", defaultValue = "2", description = "Default: ${DEFAULT-VALUE}.")
    int slots;

    @Option(names = "--queue-depth", defaultValue = "0", paramLabel = "N",
        description = "Placements each agent holds beyond its slots and starts as slots free"
            + " (late binding); 0: refuse when every slot is busy. Default: ${DEFAULT-VALUE}.")
    int queueDepth;

    @Option(names = "--preload-files", defaultValue = "0", paramLabel = "N",
        description = "Files every node holds in its cache from the start and reports in its"
            + " first REGISTER (the bench's no-idle workload). Default: ${DEFAULT-VALUE}.")
    int preloadFiles;

    @Option(names = "--preload-bytes", defaultValue = "1000000", paramLabel = "SIZE",
        converter = EntryPoints.Bytes.class,
        description = "Size of each preloaded file: bytes, or with a unit (1MB, 1.5GiB)."
            + " Default: ${DEFAULT-VALUE}.")
    long preloadBytes;

    @Option(names = "--preload-prefix", defaultValue = Preload.DEFAULT_PREFIX, paramLabel = "P",
        description = "Preloaded files are P0 ... P(N-1). Default: ${DEFAULT-VALUE}.")
    String preloadPrefix;

    @Option(names = "--cache-bytes", defaultValue = "1000000000", paramLabel = "SIZE",
        converter = EntryPoints.Bytes.class,
        description = "Cache capacity per agent: bytes, or with a unit (2GB, 1.5GiB)."
            + " Default: ${DEFAULT-VALUE}.")
    long cacheBytes;

    @Option(names = "--storage-bandwidth", defaultValue = "125e6",
        description = "Bytes/s. Default: ${DEFAULT-VALUE}.")
    double storageBandwidth;

    @Option(names = "--peer-bandwidth", defaultValue = "125e6",
        description = "Bytes/s. Default: ${DEFAULT-VALUE}.")
    double peerBandwidth;

    @Option(names = "--local-bandwidth", defaultValue = "150e6",
        description = "Bytes/s. Default: ${DEFAULT-VALUE}.")
    double localBandwidth;

    @Option(names = "--time-scale", defaultValue = "1.0",
        description = "Factor on every modelled duration (0.01 = 100x faster). Default: ${DEFAULT-VALUE}.")
    double timeScale;

    @Option(names = "--heartbeat-ms", defaultValue = "1000",
        description = "Default: ${DEFAULT-VALUE}.")
    long heartbeatMs;

    @Option(names = "--isolation", defaultValue = "read_committed",
        description = "Decisions isolation: read_committed (needed by exactly-once pools, fine for"
            + " others) or read_uncommitted. Default: ${DEFAULT-VALUE}.")
    String isolation;

    @Option(names = "--from", defaultValue = "latest",
        description = "Where decisions are read from at start-up: latest or earliest. Default: ${DEFAULT-VALUE}.")
    String from;

    @Option(names = "--scheduler-threads", defaultValue = "2",
        description = "Default: ${DEFAULT-VALUE}.")
    int schedulerThreads;

    // fallbackValue: without it picocli inverts a negatable option whose default is true
    // (--create-topics would turn it off).
    @Option(names = "--create-topics", defaultValue = "true", fallbackValue = "true",
        negatable = true,
        description = "Create missing topics. Default: ${DEFAULT-VALUE}.")
    boolean createTopics;

    @Option(names = "--state-dir", paramLabel = "DIR",
        description = "Keep each simulated node's instance id and the epochs it has seen in "
            + "DIR/<node>, so a restarted process is the same agent instance to the scheduler "
            + "(as a real agent's work directory does). Default: a new instance per start.")
    Path stateDir;

    @Option(names = "--cluster-secret-file", paramLabel = "FILE",
        description = "Sign every task event and node report with each node's key, derived from "
            + "this cluster secret (simulated nodes share one process; a real agent is given only "
            + "its own key).")
    Path clusterSecretFile;

    @Mixin StatsOptions stats;

    @Option(names = "--metrics-port", paramLabel = "PORT",
        description = "Serve every node's metrics (Prometheus text, label node) on "
            + "http://HOST:PORT/metrics and GET /health; 0: any free port (printed). Default: "
            + "none.")
    Integer metricsPort;

    private boolean readCommitted() {
      return switch (isolation.toLowerCase(Locale.ROOT)) {
        case "read_committed" -> true;
        case "read_uncommitted" -> false;
        default -> throw new CommandLine.ParameterException(commandLine(spec, this),
            "--isolation must be read_committed or read_uncommitted, not " + isolation);
      };
    }

    private HostConfig.StartFrom startFrom() {
      try {
        return HostConfig.StartFrom.valueOf(from.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(commandLine(spec, this),
            "--from must be latest or earliest, not " + from);
      }
    }

    /** Each node's identity: kept in --state-dir when given, signing when a secret is given. */
    Function<String, AgentIdentity> identities() {
      NodeKeys keys = clusterSecretFile == null ? null
          : new NodeKeys(Secrets.read(clusterSecretFile));
      return node -> {
        RecordSigner signer = keys == null ? null : keys.signer(node);
        if (stateDir == null) {
          return new AgentIdentity(AgentIdentity.newInstanceId(), EpochStore.inMemory(), signer);
        }
        return StateFiles.in(stateDir.resolve(node)).identity(signer);
      };
    }

    /** The preloaded cache of every node, checked against --cache-bytes. */
    public Preload preload() {
      try {
        return new Preload(preloadFiles, preloadBytes, preloadPrefix).fitting(cacheBytes);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(commandLine(spec, this),
            "--preload-files/--preload-bytes/--preload-prefix: " + e.getMessage());
      }
    }

    /** Every agent's settings from the options. */
    public AgentConfig agentConfig() {
      try {
        return buildAgentConfig();
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(commandLine(spec, this), e.getMessage());
      }
    }

    private AgentConfig buildAgentConfig() {
      return AgentConfig.builder(pool)
          .slots(slots)
          .queueDepth(queueDepth)
          .cacheCapacityBytes(cacheBytes)
          .storageBandwidth(storageBandwidth)
          .peerBandwidth(peerBandwidth)
          .localBandwidth(localBandwidth)
          .timeScale(timeScale)
          .heartbeatMs(heartbeatMs)
          .build();
    }

    /** The host's settings from the options (no connection made). */
    public HostConfig hostConfig() {
      Map<String, String> overrides = kafka.overrideMap();
      return HostConfig.builder(kafka.bootstrap)
          .nodeIds(explicitNodes != null && !explicitNodes.isEmpty()
              ? explicitNodes : HostConfig.nodeIds(nodePrefix, nodes))
          .readCommitted(readCommitted())
          .startFrom(startFrom())
          .schedulerThreads(schedulerThreads)
          .ensureTopics(createTopics)
          .clientOverrides(overrides)
          .build();
    }

    @Override
    public Integer call() throws Exception {
      HostConfig cfg = hostConfig();
      CountDownLatch stopped = new CountDownLatch(1);
      AgentConfig template = agentConfig();
      Preload preload = preload();
      if (!reachable(cfg, "sim")) {
        return 1;
      }
      try (AgentHost<NodeAgent> host = AgentHost.start(cfg,
          new SimulatedAgents(template, new LocalPeerDirectory(), identities(), preload))) {
        Thread hook = new Thread(() -> {
          System.out.printf("%s sim: stopping %d simulated agents of pool %s%n", NAME,
              cfg.nodeIds().size(), template.pool());
          host.close();
          System.out.printf("%s sim: stopped%n", NAME);
          System.out.flush();
          stopped.countDown();
        }, "locus-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (!host.awaitRegistered(Duration.ofSeconds(60))) {
          System.err.println(NAME + " sim: agents did not register within 60 s with Kafka at "
              + cfg.bootstrapServers());
          return 1;
        }
        List<String> ids = cfg.nodeIds();
        // "N simulated agents of pool P registered" is what scripts (and BenchRunTest) look for.
        System.out.printf("%s sim: %d simulated agents of pool %s registered with Kafka at %s"
            + " (%s); decisions partitions %s%s%n", NAME, ids.size(), template.pool(),
            cfg.bootstrapServers(),
            ids.size() == 1 ? ids.get(0) : ids.get(0) + " ... " + ids.get(ids.size() - 1),
            host.partitions(),
            stateDir == null ? "" : "; state in " + stateDir.toAbsolutePath());
        SimMetricsServer metrics = metricsPort == null ? null
            : SimMetricsServer.start("0.0.0.0", metricsPort, host::statsByNode,
                n -> host.agent(n).isDraining(), template);
        if (metrics != null) {
          System.out.printf("metrics: http://localhost:%d/metrics%n", metrics.port());
        }
        System.out.flush();
        try {
          long every = stats.everyMs();
          // A timed wait on the stop signal, not a sleep: it returns at once on shutdown.
          while (!stopped.await(every > 0 ? every : Long.MAX_VALUE, TimeUnit.MILLISECONDS)) {
            System.out.println(statsLine("sim", host.stats()));
            if (host.consumerFailure() != null) {
              System.err.println(NAME + " sim: decisions consumer stopped: "
                  + host.consumerFailure());
              return 2;
            }
          }
        } finally {
          if (metrics != null) {
            metrics.close();
          }
        }
      }
      return 0;
    }
  }

  /**
   * One real agent until stopped. SIGTERM (or Ctrl-C) drains it: no new tasks, draining=true in
   * heartbeats, running tasks finish (up to drain-timeout), then LEAVE.
   */
  @Command(name = "real", mixinStandardHelpOptions = true,
      description = "Run a real agent: stage files from storage and peers, run allow-listed"
          + " task templates, keep the cache, report over Kafka.")
  public static final class Real implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE",
        description = "The agent's YAML config (see node-agent/README.md).")
    Path config;

    @Option(names = "--node-id", paramLabel = "ID",
        description = "Overrides node-id from the config (e.g. from the pod or host name).")
    String nodeId;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
        description = "Overrides kafka.bootstrap-servers from the config.")
    String bootstrap;

    @Option(names = "--check",
        description = "Only read and validate the config, print a summary, and exit.")
    boolean check;

    @Mixin StatsOptions stats;

    /** The host's settings from the options and the config file (no connection made). */
    public HostConfig hostConfig() {
      return AgentConfigFile.load(config, nodeId).hostConfig(bootstrap);
    }

    /** The agent's settings from the config file and --node-id. */
    public RealAgentConfig agentConfig() {
      return AgentConfigFile.load(config, nodeId).agent();
    }

    @Override
    public Integer call() throws Exception {
      AgentConfigFile loaded;
      HostConfig cfg;
      try {
        loaded = AgentConfigFile.load(config, nodeId);
        // The machine too: a storage root that is not there would fail every read later.
        loaded.checkPaths();
        if (!check) {
          loaded.checkPort();
        }
        cfg = check ? null : loaded.hostConfig(bootstrap);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        System.err.println(NAME + " real: " + e.getMessage());
        return 2;
      }
      var a = loaded.agent();
      if (check) {
        String kafka = bootstrap != null ? bootstrap : loaded.bootstrapServers();
        System.out.printf("config OK: node %s of pool %s, %d slots, cache %s (%d bytes), work %s,"
            + " storage %s, templates %s%s, decisions %s, kafka %s%n", a.nodeId(), a.pool(),
            a.agent().slots(), a.cacheDir(), a.agent().cacheCapacityBytes(), a.work().dir(),
            a.storage().root(), new TreeSet<>(a.templates().keySet()),
            a.defaultTemplate() == null ? "" : " (default " + a.defaultTemplate() + ")",
            a.signer() == null ? "unsigned" : "HMAC-signed",
            kafka != null ? kafka : "not set (give --bootstrap-servers)");
        return 0;
      }
      CountDownLatch stopped = new CountDownLatch(1);
      if (!reachable(cfg, "real")) {
        return 1;
      }
      try (AgentHost<RealAgent> host = AgentHost.start(cfg, loaded.agents())) {
        Thread hook = new Thread(() -> {
          try {
            System.out.printf("%s real: stopping node %s: draining (up to %s), then LEAVE%n",
                NAME, a.nodeId(), a.drainTimeout());
            System.out.flush();
            if (!host.drain(a.drainTimeout())) {
              System.err.println(NAME + " real: drain did not finish within " + a.drainTimeout()
                  + "; stopping the remaining tasks");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            host.close();
            System.out.printf("%s real: node %s stopped%n", NAME, a.nodeId());
            System.out.flush();
            stopped.countDown();
          }
        }, "locus-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (!host.awaitRegistered(Duration.ofSeconds(60))) {
          System.err.println(NAME + " real: node " + a.nodeId()
              + " did not register within 60 s with Kafka at " + cfg.bootstrapServers());
          return 1;
        }
        RealAgent agent = host.agent(a.nodeId());
        // Kafka took the REGISTER; only the scheduler's verdict (node-status) says it registered.
        System.out.printf("%s real: node %s of pool %s: registration sent to Kafka at %s,"
            + " waiting for the scheduler; peers, /metrics and /health at %s; cache %s, work %s%n",
            NAME, a.nodeId(), a.pool(), cfg.bootstrapServers(), agent.endpoint(), a.cacheDir(),
            a.work().dir());
        System.out.flush();
        agent.agent().accepted().thenAccept(v -> {
          System.out.printf("%s real: node %s of pool %s registered by the scheduler (%d slots,"
              + " agent instance %s)%n", NAME, a.nodeId(), a.pool(), v.getSlots(),
              v.getInstanceId());
          System.out.flush();
        });
        long every = stats.everyMs();
        // A timed wait on the stop signal, not a sleep: it returns at once on shutdown.
        while (!stopped.await(every > 0 ? every : Long.MAX_VALUE, TimeUnit.MILLISECONDS)) {
          System.out.println(statsLine("real", host.stats()));
          if (host.consumerFailure() != null) {
            System.err.println(NAME + " real: decisions consumer stopped: "
                + host.consumerFailure());
            return 2;
          }
          if (agent.agent().isClosed()) {
            return 0;
          }
        }
      }
      return 0;
    }
  }

  /**
   * Derives one node's key from the cluster secret ({@link NodeKeys}): {@code --out} writes the raw
   * key bytes (mode 600) for the agent's {@code security.node-key-file}; without it the key is
   * printed as 64 hex digits (a file holding those is read too).
   */
  @Command(name = "node-key", mixinStandardHelpOptions = true,
      description = "Derive a node's key (signs its task events and node reports) from the"
          + " cluster secret.")
  public static final class NodeKey implements Callable<Integer> {
    @Option(names = "--node", required = true, paramLabel = "ID", description = "The node id.")
    String node;

    @Option(names = "--cluster-secret-file", required = true, paramLabel = "FILE",
        description = "The scheduler's cluster node secret (trailing newline ignored).")
    Path clusterSecretFile;

    @Option(names = "--out", paramLabel = "FILE",
        description = "Write the raw key here (mode 600) instead of printing it as hex.")
    Path out;

    @Override
    public Integer call() throws Exception {
      // A node name is an id of the records (Limits.MAX_ID_CHARS), like an instance id.
      if (node.isBlank() || node.length() > Limits.MAX_ID_CHARS) {
        System.err.println(NAME + " node-key: --node must have 1 to " + Limits.MAX_ID_CHARS
            + " characters");
        return 2;
      }
      byte[] key;
      try {
        key = new NodeKeys(Secrets.read(clusterSecretFile)).key(node);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        System.err.println(NAME + " node-key: " + e.getMessage());
        return 2;
      }
      if (out == null) {
        System.out.println(HexFormat.of().formatHex(key));
        return 0;
      }
      Path dir = out.toAbsolutePath().getParent();
      Path tmp = Files.createTempFile(dir, ".node-key", ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try {
        Files.write(tmp, key);
        Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
      System.out.printf("key of node %s written to %s%n", node, out);
      return 0;
    }
  }
}
