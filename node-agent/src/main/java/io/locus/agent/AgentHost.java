package io.locus.agent;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.codec.SchemaException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N agents of one pool in one JVM, against a real Kafka; what the agents are (simulated or real) is
 * the {@link AgentFactory}'s business: {@code new SimulatedAgents(template)} or
 * {@code new RealAgents(template, nodesDir)}.
 *
 * <p>Thread model: one consumer thread reads {@code decisions}, assigned (no consumer group) to
 * exactly the partitions holding this host's node keys, and hands each record to the agent its key
 * names (records of other nodes sharing a partition are skipped); a small scheduled pool runs every
 * agent's timed steps and heartbeats; one producer carries every agent's task events and node
 * reports. Agents guard their own state (see {@link NodeAgent}), so the consumer thread and the
 * pool never race.
 *
 * <p>Optionally the same consumer also reads the pool's {@code node-reports} partition, from a
 * look-back before now, and hands every report of the pool to a listener: real agents learn their
 * peers' endpoints that way.
 *
 * <p>Start-up order: the consumer's start offsets are resolved before any agent registers, so a
 * decision the scheduler makes in answer to a REGISTER is never skipped by a "latest" that was
 * resolved late.
 */
public final class AgentHost<A> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentHost.class);
  private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(100);
  /** How long a closing host waits for the broker to take its agents' last events. */
  static final Duration CLOSE_DEADLINE = Duration.ofSeconds(10);
  /** The producer's linger: the events of one poll's decisions leave in one batch. */
  static final int PRODUCER_LINGER_MS = 10;
  static final int PRODUCER_BATCH_BYTES = 512 * 1024;

  private final HostConfig config;
  private final AgentFactory<A> factory;
  private final String pool;
  private final String clientPrefix;
  /** Every agent made, even if start failed half-way: all are closed. */
  private final Map<String, A> agents = new LinkedHashMap<>();
  private final Map<String, NodeAgent> protocols = new LinkedHashMap<>();
  private final CountDownLatch registered;
  private final AtomicLong decisionsRouted = new AtomicLong();
  private final AtomicLong decisionsOfOtherNodes = new AtomicLong();
  private final AtomicLong decodeErrors = new AtomicLong();
  private final AtomicLong decisionsUndecodable = new AtomicLong();
  private final AtomicLong recordFailures = new AtomicLong();
  private final AtomicLong sendFailures = new AtomicLong();
  private BrokerWatch brokerWatch;
  private java.util.concurrent.ScheduledExecutorService brokerWatchTimer;
  private final Set<Integer> partitions = new TreeSet<>();
  private final AgentFactory.ReportsListener reports;
  private TopicPartition reportsPartition;
  /** node-status, where the scheduler's verdicts on the agents' registrations come (or null). */
  private TopicPartition statusPartition;

  private KafkaProducer<byte[], byte[]> producer;
  private KafkaConsumer<byte[], byte[]> consumer;
  private ScheduledThreadPoolExecutor scheduler;
  private Thread consumerThread;
  private volatile boolean closing;
  private volatile Throwable consumerFailure;
  private boolean closed;

  private AgentHost(HostConfig config, AgentFactory<A> factory) {
    this.config = config;
    this.factory = factory;
    this.pool = factory.pool();
    this.clientPrefix = factory.clientPrefix();
    this.reports = factory.reports();
    this.registered = new CountDownLatch(config.nodeIds().size());
  }

  /**
   * Connects, positions the consumer, creates every agent with {@code factory}, registers them
   * (REGISTER is sent, not yet acknowledged: see {@link #awaitRegistered}) and starts consuming.
   */
  public static <A> AgentHost<A> start(HostConfig config, AgentFactory<A> factory) {
    factory.check(config.nodeIds());
    AgentHost<A> host = new AgentHost<>(config, factory);
    try {
      host.doStart();
      return host;
    } catch (RuntimeException | Error e) {
      host.close();
      throw e;
    }
  }

  private void doStart() {
    if (config.ensureTopics()) {
      TopicAdmin.ensureTopics(overridden(ClientConfigs.base(config.bootstrapServers())),
          List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.NODE_REPORTS, Topics.NODE_STATUS));
    }

    Properties pp = ClientConfigs.producer(config.bootstrapServers());
    // Every event of a pool goes to one partition (keyed by pool), thousands per second from a
    // host of many agents: large batches, filled over a short linger, keep the produce requests
    // few (see node-agent/README.md, "Throughput"). The file's overrides still win.
    pp.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(PRODUCER_LINGER_MS));
    pp.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(PRODUCER_BATCH_BYTES));
    pp = overridden(pp);
    pp.put(ProducerConfig.CLIENT_ID_CONFIG, clientPrefix + "-" + pool + "-producer");
    producer = new KafkaProducer<>(pp);

    Properties cp = overridden(
        ClientConfigs.consumer(config.bootstrapServers(), null, config.readCommitted()));
    // Partitions are assigned, offsets never committed: where to start is an explicit choice.
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.CLIENT_ID_CONFIG, clientPrefix + "-" + pool + "-decisions");
    consumer = new KafkaConsumer<>(cp);
    assignPartitions();

    ThreadFactory threads = new ThreadFactory() {
      private final AtomicInteger n = new AtomicInteger();

      @Override
      public Thread newThread(Runnable r) {
        Thread t = new Thread(r, clientPrefix + "-" + pool + "-sched-" + n.getAndIncrement());
        t.setDaemon(true);
        return t;
      }
    };
    scheduler = new ScheduledThreadPoolExecutor(config.schedulerThreads(), threads);
    // Cancelled steps (cancelled tasks, heartbeats) leave the queue at once instead of at their time.
    scheduler.setRemoveOnCancelPolicy(true);
    ExecutorAgentScheduler agentScheduler = new ExecutorAgentScheduler(scheduler);

    // The producer rides out a broker outage silently; the watch logs its start and end.
    brokerWatch = new BrokerWatch("agents of pool " + pool, config.bootstrapServers(),
        BrokerWatch.DEFAULT_THRESHOLD, System::nanoTime);
    // Its own thread: with the broker gone a send can block (up to max.block.ms, waiting for
    // metadata), and blocked heartbeats may hold every thread of the agents' pool.
    brokerWatchTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, clientPrefix + "-" + pool + "-broker-watch");
      t.setDaemon(true);
      return t;
    });
    brokerWatchTimer.scheduleWithFixedDelay(brokerWatch::check, 1, 1, TimeUnit.SECONDS);
    KafkaAgentOutput output = new KafkaAgentOutput(producer, new KafkaAgentOutput.Listener() {
      @Override
      public void acked(SpecificRecord record) {
        if (record instanceof NodeReport r && r.getType() == NodeReportType.REGISTER) {
          registered.countDown();
        }
      }

      @Override
      public void failed(SpecificRecord record, Exception error) {
        sendFailures.incrementAndGet();
      }
    }, brokerWatch);
    AgentOutput shared = factory.output(output, agentScheduler);
    for (String node : config.nodeIds()) {
      A agent = factory.create(node, agentScheduler, shared);
      agents.put(node, agent);
      protocols.put(node, factory.protocol(agent));
    }
    for (NodeAgent agent : protocols.values()) {
      agent.start();
    }

    consumerThread = new Thread(this::consumeLoop, clientPrefix + "-" + pool + "-decisions");
    consumerThread.setDaemon(true);
    consumerThread.start();
    LOG.info("agents {} of pool {} started on decisions partitions {} ({}, from {})",
        config.nodeIds(), pool, partitions,
        config.readCommitted() ? "read_committed" : "read_uncommitted", config.startFrom());
  }

  private Properties overridden(Properties p) {
    return ClientConfigs.withOverrides(p, config.clientOverrides());
  }

  private void assignPartitions() {
    String topic = Topics.DECISIONS.name();
    List<PartitionInfo> infos = consumer.partitionsFor(topic, KAFKA_TIMEOUT);
    if (infos == null || infos.isEmpty()) {
      throw new IllegalStateException("topic " + topic + " does not exist on "
          + config.bootstrapServers() + " (create it with TopicAdmin.ensureTopics)");
    }
    // Route by the real partition count: the scheduler's producer partitions by it too.
    int count = infos.size();
    if (count != Topics.DECISIONS.partitions()) {
      LOG.warn("topic {} has {} partitions, {} declared; reading by the actual count", topic,
          count, Topics.DECISIONS.partitions());
    }
    List<TopicPartition> tps = new ArrayList<>();
    for (String node : config.nodeIds()) {
      int p = Topics.partitionOf(node, count);
      if (partitions.add(p)) {
        tps.add(new TopicPartition(topic, p));
      }
    }
    List<TopicPartition> all = new ArrayList<>(tps);
    if (reports != null) {
      String rt = Topics.NODE_REPORTS.name();
      List<PartitionInfo> ri = consumer.partitionsFor(rt, KAFKA_TIMEOUT);
      if (ri == null || ri.isEmpty()) {
        throw new IllegalStateException("topic " + rt + " does not exist on "
            + config.bootstrapServers());
      }
      reportsPartition = new TopicPartition(rt, Topics.partitionOf(pool, ri.size()));
      all.add(reportsPartition);
    }
    // The scheduler's verdicts: from the end as it is before any agent registers, so only the
    // verdicts on this start's REGISTER (and later ones) are read, never an older run's (a real
    // agent keeps its instance id across restarts). A cluster without the topic (made before it
    // existed) still runs; the agents just cannot hear a refusal.
    List<PartitionInfo> si = List.of();
    try {
      si = consumer.partitionsFor(Topics.NODE_STATUS.name(), KAFKA_TIMEOUT);
      if (si == null || si.isEmpty()) {
        LOG.warn("topic {} does not exist on {}: the agents cannot learn whether the scheduler"
            + " accepted their registration ('locus topics create' creates it)",
            Topics.NODE_STATUS.name(), config.bootstrapServers());
        si = List.of();
      }
    } catch (org.apache.kafka.common.errors.TopicAuthorizationException e) {
      // ACLs granted before the agents read node-status (LocusAcls.agent grants it now)
      LOG.warn("this agent may not read topic {} (ACLs): it cannot learn whether the scheduler"
          + " accepted its registration; grant READ on it (LocusAcls.agent)",
          Topics.NODE_STATUS.name());
    }
    for (PartitionInfo info : si) {
      TopicPartition tp = new TopicPartition(info.topic(), info.partition());
      if (statusPartition == null) {
        statusPartition = tp; // one partition is declared; a verdict names its node anyway
      }
      all.add(tp);
    }
    consumer.assign(all);
    if (statusPartition != null) {
      consumer.seekToEnd(all.stream().filter(tp -> tp.topic().equals(statusPartition.topic()))
          .toList());
    }
    if (config.startFrom() == HostConfig.StartFrom.EARLIEST) {
      consumer.seekToBeginning(tps);
    } else {
      consumer.seekToEnd(tps);
    }
    if (reportsPartition != null) {
      long since = System.currentTimeMillis() - reports.lookback().toMillis();
      OffsetAndTimestamp at = consumer.offsetsForTimes(Map.of(reportsPartition, since),
          KAFKA_TIMEOUT).get(reportsPartition);
      if (at != null) {
        consumer.seek(reportsPartition, at.offset());
      } else {
        consumer.seekToEnd(List.of(reportsPartition));
      }
    }
    // seekTo* is lazy: resolve the offsets now, before the agents register (see class comment).
    for (TopicPartition tp : all) {
      consumer.position(tp, KAFKA_TIMEOUT);
    }
  }

  private void consumeLoop() {
    try {
      while (!closing) {
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(POLL)) {
          handle(rec);
        }
      }
    } catch (WakeupException e) {
      if (!closing) {
        stopped(e);
        LOG.error("decisions consumer woken up unexpectedly", e);
      }
    } catch (RuntimeException | Error e) {
      stopped(e);
      LOG.error("decisions consumer of pool {} stopped", pool, e);
    } finally {
      try {
        consumer.close(Duration.ofSeconds(5));
      } catch (RuntimeException e) {
        LOG.debug("closing the decisions consumer", e);
      }
    }
  }

  /**
   * One record, whatever it holds: nothing but a {@link VirtualMachineError} (the JVM itself is in
   * trouble) leaves this method, so no record and no agent failure stops the consumer.
   */
  private void handle(ConsumerRecord<byte[], byte[]> rec) {
    try {
      if (reportsPartition != null && rec.topic().equals(reportsPartition.topic())) {
        report(rec);
      } else if (statusPartition != null && rec.topic().equals(statusPartition.topic())) {
        verdict(rec);
      } else {
        route(rec);
      }
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      recordFailures.incrementAndGet();
      LOG.error("record {}-{}@{} failed; consuming on", rec.topic(), rec.partition(),
          rec.offset(), e);
    }
  }

  /** The consumer thread is ending for good: every agent's /health says so from now on. */
  private void stopped(Throwable e) {
    consumerFailure = e;
    for (NodeAgent a : protocols.values()) {
      a.hostFailed("decisions consumer stopped: " + e);
    }
  }

  private void report(ConsumerRecord<byte[], byte[]> rec) {
    NodeReport r;
    try {
      r = Topics.NODE_REPORTS.decode(rec.value());
    } catch (SchemaException e) {
      decodeErrors.incrementAndGet();
      return;
    }
    if (pool.equals(r.getPool())) {
      try {
        reports.listener().accept(r);
      } catch (RuntimeException e) {
        LOG.warn("node-reports listener failed on a report of {}", r.getNode(), e);
      }
    }
  }

  /** A verdict of the scheduler on a node: to the agent it names, when it is one of ours. */
  private void verdict(ConsumerRecord<byte[], byte[]> rec) {
    io.locus.schemas.NodeStatus v;
    if (rec.value() == null) {
      return; // a tombstone: nothing to say
    }
    try {
      v = Topics.NODE_STATUS.decode(rec.value());
    } catch (SchemaException e) {
      decodeErrors.incrementAndGet();
      return;
    }
    NodeAgent agent = protocols.get(v.getNode().toString());
    if (agent != null && pool.equals(v.getPool().toString())) {
      agent.verdict(v);
    }
  }

  private void route(ConsumerRecord<byte[], byte[]> rec) {
    String key = rec.key() == null ? null : new String(rec.key(), StandardCharsets.UTF_8);
    NodeAgent agent = key == null ? null : protocols.get(key);
    if (agent == null) {
      decisionsOfOtherNodes.incrementAndGet();
      return;
    }
    Decision d;
    String bad = null;
    try {
      // AvroCodec is bounded: over 1 MiB, or any length beyond the bytes left, is refused before
      // anything is allocated, so no record can exhaust the heap here; and strict: a decision
      // with bytes after it is refused, as the scheduler refuses such an input.
      d = Topics.DECISIONS.decode(rec.value());
    } catch (VirtualMachineError e) {
      // A stack overflow is what a deeply nested record causes, not a JVM in trouble.
      if (!(e instanceof StackOverflowError)) {
        throw e;
      }
      bad = e.toString();
      d = null;
    } catch (RuntimeException | Error e) {
      bad = e instanceof SchemaException ? e.getMessage() : e.toString();
      d = null;
    }
    if (d == null) {
      decodeErrors.incrementAndGet();
      decisionsUndecodable.incrementAndGet();
      LOG.warn("undecodable decision for {} at {}-{}@{}: {}", key, rec.topic(), rec.partition(),
          rec.offset(), bad);
      return;
    }
    decisionsRouted.incrementAndGet();
    try {
      agent.onDecision(d);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      // One bad decision must not stop every agent of the host.
      LOG.error("agent {} failed on decision {}", key, d.getDecisionId(), e);
    }
  }

  // ---- queries ---------------------------------------------------------------------------------

  public HostConfig config() {
    return config;
  }

  public List<String> nodeIds() {
    return config.nodeIds();
  }

  public String pool() {
    return pool;
  }

  /** The agent of {@code nodeId}, as the factory made it. */
  public A agent(String nodeId) {
    A a = agents.get(nodeId);
    if (a == null) {
      throw new IllegalArgumentException("no agent " + nodeId + " here; have " + agents.keySet());
    }
    return a;
  }

  /** Every agent, in node order, as the factory made them. */
  public List<A> agents() {
    return List.copyOf(agents.values());
  }

  /** The decisions partitions this host reads. */
  public Set<Integer> partitions() {
    return Collections.unmodifiableSet(partitions);
  }

  /** The scheduled pool running agents' timed steps (null before start). */
  public ScheduledThreadPoolExecutor scheduler() {
    return scheduler;
  }

  /** Waits until the broker acknowledged every agent's REGISTER. */
  public boolean awaitRegistered(Duration timeout) throws InterruptedException {
    return registered.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** All agents' counters summed. */
  public AgentStats stats() {
    AgentStats sum = AgentStats.ZERO;
    for (NodeAgent a : protocols.values()) {
      sum = sum.plus(a.stats());
    }
    return sum;
  }

  public Map<String, AgentStats> statsByNode() {
    Map<String, AgentStats> out = new LinkedHashMap<>();
    protocols.forEach((n, a) -> out.put(n, a.stats()));
    return out;
  }

  public long decisionsRouted() {
    return decisionsRouted.get();
  }

  public long decisionsOfOtherNodes() {
    return decisionsOfOtherNodes.get();
  }

  /** Records of decisions and node-reports that could not be decoded. */
  public long decodeErrors() {
    return decodeErrors.get();
  }

  /**
   * Decisions for this host's nodes that were refused before decoding (over the size limit, a
   * length beyond the record's end) or that failed to decode; each is logged and skipped.
   */
  public long decisionsUndecodable() {
    return decisionsUndecodable.get();
  }

  /** Records whose handling failed with an unexpected error (logged; consumption went on). */
  public long recordFailures() {
    return recordFailures.get();
  }

  /** Whether the decisions consumer thread is running (false before start and after close). */
  public boolean consumerAlive() {
    return consumerThread != null && consumerThread.isAlive() && consumerFailure == null;
  }

  public long sendFailures() {
    return sendFailures.get();
  }

  /** Broker outages logged so far (see {@link BrokerWatch}). */
  public long brokerOutages() {
    return brokerWatch == null ? 0 : brokerWatch.outages();
  }

  public Throwable consumerFailure() {
    return consumerFailure;
  }

  // ---- shutdown --------------------------------------------------------------------------------

  /**
   * Drains every agent (see {@link NodeAgent#drain()}) while still reading decisions (a cancel
   * still arrives), and waits up to {@code timeout} for all of them to leave.
   *
   * @return true when every agent left within the timeout (close() stops the rest)
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (NodeAgent a : protocols.values()) {
      all.add(a.drain());
    }
    try {
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("drain failed", e.getCause());
    }
  }

  /**
   * Stops reading decisions, stops every agent (running tasks FAILED "agent stopped", then LEAVE),
   * delivers what was produced, releases the clients, then lets the factory release each agent's
   * own resources (see {@link AgentFactory#closed}).
   */
  private Thread startCloseWatchdog(CountDownLatch delivered) {
    Thread t = new Thread(() -> {
      try {
        if (delivered.await(CLOSE_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
          return; // the goodbyes were delivered (or given up) in time
        }
      } catch (InterruptedException e) {
        return;
      }
      LOG.warn("agents of pool {}: the broker at {} took no goodbye within {} s; closing anyway",
          pool, config.bootstrapServers(), CLOSE_DEADLINE.toSeconds());
      producer.close(Duration.ZERO);
    }, clientPrefix + "-" + pool + "-close-watchdog");
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closing = true;
    if (consumerThread != null) {
      consumer.wakeup();
      try {
        consumerThread.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else if (consumer != null) {
      consumer.close(Duration.ofSeconds(5));
    }
    // With the broker gone, a send blocks for the producer's max.block.ms (a minute) waiting for
    // metadata, and a heartbeat blocked that way holds its agent's monitor, so each goodbye would
    // wait a minute per agent. The watchdog bounds the whole goodbye: past CLOSE_DEADLINE it closes
    // the producer at once, which fails every blocked and later send (the LEAVEs are then lost,
    // and the scheduler finds the nodes by their silence instead).
    long deadline = System.nanoTime() + CLOSE_DEADLINE.toNanos();
    CountDownLatch delivered = new CountDownLatch(1);
    if (producer != null) {
      startCloseWatchdog(delivered);
    }
    Map<String, RuntimeException> errors = new HashMap<>();
    protocols.forEach((node, a) -> {
      try {
        a.close();
      } catch (RuntimeException e) {
        errors.put(node, e);
      }
    });
    if (brokerWatchTimer != null) {
      brokerWatchTimer.shutdownNow();
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        scheduler.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (producer != null) {
      producer.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      delivered.countDown();
    }
    agents.forEach((node, a) -> {
      try {
        factory.closed(a);
      } catch (RuntimeException e) {
        errors.putIfAbsent(node, e);
      }
    });
    errors.forEach((n, e) -> LOG.warn("closing agent {} failed", n, e));
  }
}
