package io.locus.agent.sim;

import io.locus.agent.AgentStats;
import io.locus.agent.ExecutorAgentScheduler;
import io.locus.agent.KafkaAgentOutput;
import io.locus.agent.NodeAgent;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N simulated agents of one pool in one JVM, against a real Kafka.
 *
 * <p>Thread model: one consumer thread reads {@code decisions}, assigned (no consumer group) to
 * exactly the partitions holding this host's node keys, and hands each record to the agent its key
 * names (records of other nodes sharing a partition are skipped); a small scheduled pool runs every
 * agent's timed steps and heartbeats; one producer carries every agent's task events and node
 * reports. Agents guard their own state (see {@link NodeAgent}), so the consumer thread and the
 * pool never race.
 *
 * <p>Start-up order: the consumer's start offsets are resolved before any agent registers, so a
 * decision the scheduler makes in answer to a REGISTER is never skipped by a "latest" that was
 * resolved late.
 */
public final class SimulatedAgentHost implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SimulatedAgentHost.class);
  private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(100);

  private final HostConfig config;
  private final Map<String, NodeAgent> agents = new LinkedHashMap<>();
  private final LocalPeerDirectory peers;
  private final CountDownLatch registered;
  private final AtomicLong decisionsRouted = new AtomicLong();
  private final AtomicLong decisionsOfOtherNodes = new AtomicLong();
  private final AtomicLong decodeErrors = new AtomicLong();
  private final AtomicLong sendFailures = new AtomicLong();
  private final Set<Integer> partitions = new TreeSet<>();

  private KafkaProducer<byte[], byte[]> producer;
  private KafkaConsumer<byte[], byte[]> consumer;
  private ScheduledThreadPoolExecutor scheduler;
  private Thread consumerThread;
  private volatile boolean closing;
  private volatile Throwable consumerFailure;
  private boolean closed;

  private SimulatedAgentHost(HostConfig config) {
    this.config = config;
    this.peers = config.peers() != null ? config.peers() : new LocalPeerDirectory();
    this.registered = new CountDownLatch(config.nodeIds().size());
  }

  /**
   * Connects, positions the decisions consumer, registers every agent (REGISTER is sent, not yet
   * acknowledged: see {@link #awaitRegistered}) and starts consuming.
   */
  public static SimulatedAgentHost start(HostConfig config) {
    SimulatedAgentHost host = new SimulatedAgentHost(config);
    try {
      host.doStart();
      return host;
    } catch (RuntimeException | Error e) {
      host.close();
      throw e;
    }
  }

  private void doStart() {
    String pool = config.pool();
    if (config.ensureTopics()) {
      TopicAdmin.ensureTopics(overridden(ClientConfigs.base(config.bootstrapServers())),
          List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.NODE_REPORTS));
    }

    Properties pp = overridden(ClientConfigs.producer(config.bootstrapServers()));
    pp.put(ProducerConfig.CLIENT_ID_CONFIG, "locus-agent-sim-" + pool + "-producer");
    producer = new KafkaProducer<>(pp);

    Properties cp = overridden(
        ClientConfigs.consumer(config.bootstrapServers(), null, config.readCommitted()));
    // Partitions are assigned, offsets never committed: where to start is an explicit choice.
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.CLIENT_ID_CONFIG, "locus-agent-sim-" + pool + "-decisions");
    consumer = new KafkaConsumer<>(cp);
    assignDecisionPartitions();

    ThreadFactory threads = new ThreadFactory() {
      private final AtomicInteger n = new AtomicInteger();

      @Override
      public Thread newThread(Runnable r) {
        Thread t = new Thread(r, "locus-agent-" + pool + "-sched-" + n.getAndIncrement());
        t.setDaemon(true);
        return t;
      }
    };
    scheduler = new ScheduledThreadPoolExecutor(config.schedulerThreads(), threads);
    // Cancelled steps (cancelled tasks, heartbeats) leave the queue at once instead of at their time.
    scheduler.setRemoveOnCancelPolicy(true);
    ExecutorAgentScheduler agentScheduler = new ExecutorAgentScheduler(scheduler);

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
    });
    for (String node : config.nodeIds()) {
      NodeAgent agent = SimulatedAgents.create(config.agentTemplate().withNodeId(node),
          agentScheduler, output, peers);
      peers.register(agent);
      agents.put(node, agent);
    }
    for (NodeAgent agent : agents.values()) {
      agent.start();
    }

    consumerThread = new Thread(this::consumeLoop, "locus-agent-" + pool + "-decisions");
    consumerThread.setDaemon(true);
    consumerThread.start();
    LOG.info("simulated agents {} of pool {} started on decisions partitions {} ({}, from {})",
        config.nodeIds(), pool, partitions,
        config.readCommitted() ? "read_committed" : "read_uncommitted", config.startFrom());
  }

  private Properties overridden(Properties p) {
    return ClientConfigs.withOverrides(p, config.clientOverrides());
  }

  private void assignDecisionPartitions() {
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
    consumer.assign(tps);
    if (config.startFrom() == HostConfig.StartFrom.EARLIEST) {
      consumer.seekToBeginning(tps);
    } else {
      consumer.seekToEnd(tps);
    }
    // seekTo* is lazy: resolve the offsets now, before the agents register (see class comment).
    for (TopicPartition tp : tps) {
      consumer.position(tp, KAFKA_TIMEOUT);
    }
  }

  private void consumeLoop() {
    try {
      while (!closing) {
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(POLL)) {
          route(rec);
        }
      }
    } catch (WakeupException e) {
      if (!closing) {
        consumerFailure = e;
        LOG.error("decisions consumer woken up unexpectedly", e);
      }
    } catch (RuntimeException | Error e) {
      consumerFailure = e;
      LOG.error("decisions consumer of pool {} stopped", config.pool(), e);
    } finally {
      try {
        consumer.close(Duration.ofSeconds(5));
      } catch (RuntimeException e) {
        LOG.debug("closing the decisions consumer", e);
      }
    }
  }

  private void route(ConsumerRecord<byte[], byte[]> rec) {
    String key = rec.key() == null ? null : new String(rec.key(), StandardCharsets.UTF_8);
    NodeAgent agent = key == null ? null : agents.get(key);
    if (agent == null) {
      decisionsOfOtherNodes.incrementAndGet();
      return;
    }
    Decision d;
    try {
      d = Topics.DECISIONS.decode(rec.value());
    } catch (SchemaException e) {
      decodeErrors.incrementAndGet();
      LOG.warn("undecodable decision at {}-{}@{}: {}", rec.topic(), rec.partition(),
          rec.offset(), e.getMessage());
      return;
    }
    decisionsRouted.incrementAndGet();
    try {
      agent.onDecision(d);
    } catch (RuntimeException e) {
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

  public NodeAgent agent(String nodeId) {
    NodeAgent a = agents.get(nodeId);
    if (a == null) {
      throw new IllegalArgumentException("no agent " + nodeId + " here; have " + agents.keySet());
    }
    return a;
  }

  public List<NodeAgent> agents() {
    return List.copyOf(agents.values());
  }

  /** The decisions partitions this host reads. */
  public Set<Integer> partitions() {
    return Collections.unmodifiableSet(partitions);
  }

  /** Waits until the broker acknowledged every agent's REGISTER. */
  public boolean awaitRegistered(Duration timeout) throws InterruptedException {
    return registered.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** All agents' counters summed. */
  public AgentStats stats() {
    AgentStats sum = AgentStats.ZERO;
    for (NodeAgent a : agents.values()) {
      sum = sum.plus(a.stats());
    }
    return sum;
  }

  public Map<String, AgentStats> statsByNode() {
    Map<String, AgentStats> out = new LinkedHashMap<>();
    agents.forEach((n, a) -> out.put(n, a.stats()));
    return out;
  }

  /** Decision records handed to an agent. */
  public long decisionsRouted() {
    return decisionsRouted.get();
  }

  /** Decision records of nodes not on this host that share its partitions. */
  public long decisionsOfOtherNodes() {
    return decisionsOfOtherNodes.get();
  }

  /** Decision records that could not be decoded (skipped). */
  public long decodeErrors() {
    return decodeErrors.get();
  }

  /** Task events or node reports the producer could not deliver. */
  public long sendFailures() {
    return sendFailures.get();
  }

  /** Why the decisions consumer stopped, if it stopped before close; null while healthy. */
  public Throwable consumerFailure() {
    return consumerFailure;
  }

  // ---- shutdown --------------------------------------------------------------------------------

  /**
   * Stops reading decisions, stops every agent (running tasks FAILED "agent stopped", then LEAVE),
   * delivers what was produced and releases the clients.
   */
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
    Map<String, RuntimeException> errors = new HashMap<>();
    for (NodeAgent a : agents.values()) {
      try {
        a.close();
      } catch (RuntimeException e) {
        errors.put(a.nodeId(), e);
      }
      peers.unregister(a);
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
      producer.close(Duration.ofSeconds(10));
    }
    errors.forEach((n, e) -> LOG.warn("closing agent {} failed", n, e));
  }
}
