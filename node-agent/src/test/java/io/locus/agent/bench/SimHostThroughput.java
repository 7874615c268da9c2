package io.locus.agent.bench;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.AgentStats;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.Preload;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * How many decisions per second one sim host ({@code locus agent sim}) absorbs: N PlaceTask
 * decisions for {@code nodes} simulated nodes are published to an embedded broker first, then a
 * host starts reading them from the beginning, and the run ends when every COMPLETED event is on
 * the task-events topic. Each task reads one preloaded file (a local hit) and computes for a
 * modelled second at a tiny time scale, so the cost measured is the agents' own.
 *
 * <p>Not a test (speed is never asserted): run it with JFR for a profile, e.g.
 * {@code java -XX:StartFlightRecording=filename=sim.jfr -cp ... io.locus.agent.bench.SimHostThroughput
 * 1000 4 100000}. Arguments: nodes, slots, decisions; system properties
 * {@code -Dqueue=N} (default: enough for every decision of a node) and {@code -Dwarmup=N}.
 */
public final class SimHostThroughput {
  private static final String POOL = "bench";

  private SimHostThroughput() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.locus");
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int slots = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    int perNode = (n + nodes - 1) / nodes;
    int queue = Integer.getInteger("queue", Math.max(0, perNode - slots));
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      long published = publish(kafka.bootstrapServers(), nodes, n);
      System.out.printf("published %d decisions in %d ms%n", n, published);
      Result r = run(kafka.bootstrapServers(), nodes, slots, queue, n);
      System.out.printf("nodes %d x %d slots, queue %d: %d COMPLETED in %d ms from host start"
          + " (%.0f decisions/s); %d ms after registration (%.0f/s)%n", nodes, slots, queue,
          r.completed, r.fromStartMs, n * 1000.0 / r.fromStartMs, r.fromRegisteredMs,
          n * 1000.0 / Math.max(1, r.fromRegisteredMs));
      System.out.println(r.stats);
    }
  }

  record Result(long completed, long fromStartMs, long fromRegisteredMs, AgentStats stats) {}

  static String node(int i) {
    return String.format("node-%02d", i);
  }

  /** Publishes n placements, round robin over the nodes; returns the milliseconds it took. */
  static long publish(String bootstrap, int nodes, int n) {
    long t0 = System.nanoTime();
    var p = ClientConfigs.producer(bootstrap);
    // Loading only: order and exactly-once do not matter, and an idempotent producer retrying
    // under a loaded embedded broker can stall on out-of-order sequence errors.
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < n; i++) {
        String node = node(i % nodes);
        Decision d = Decision.newBuilder()
            .setDecisionId(POOL + "/place/" + i)
            .setEpoch(1)
            .setPool(POOL)
            .setNode(node)
            .setTimeMs(0)
            .setAction(PlaceTask.newBuilder()
                .setTaskId("t" + i)
                .setJobId("j" + (i / 100))
                .setAttempt(0)
                .setInputs(List.of(InputPlan.newBuilder()
                    .setFileId("bench-file-" + (i % 4))
                    .setBytes(1_000_000)
                    .setSource(FetchSource.LOCAL)
                    .setCache(true)
                    .build()))
                .setComputeSeconds(1.0)
                .setReason(PlacementReason.newBuilder().setPolicy("FA").build())
                .build())
            .build();
        producer.send(new ProducerRecord<>(Topics.DECISIONS.name(),
            Topics.partitionOf(node, Topics.DECISIONS.partitions()),
            Topics.DECISIONS.key(node), Topics.DECISIONS.value(d)));
      }
      producer.flush();
    }
    return (System.nanoTime() - t0) / 1_000_000;
  }

  static Result run(String bootstrap, int nodes, int slots, int queue, int n) throws Exception {
    AgentConfig template = AgentConfig.builder(POOL).slots(slots).queueDepth(queue)
        .timeScale(1e-6).heartbeatMs(1000).cacheCapacityBytes(1_000_000_000L).build();
    HostConfig cfg = HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds("node-", nodes))
        .readCommitted(false)
        .startFrom(HostConfig.StartFrom.EARLIEST)
        .ensureTopics(false)
        .build();
    TopicPartition events = new TopicPartition(Topics.TASK_EVENTS.name(),
        Topics.partitionOf(POOL, Topics.TASK_EVENTS.partitions()));
    try (KafkaConsumer<byte[], byte[]> counter =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false))) {
      counter.assign(List.of(events));
      counter.seekToEnd(List.of(events));
      counter.position(events);
      long t0 = System.nanoTime();
      try (AgentHost<NodeAgent> host = AgentHost.start(cfg, new SimulatedAgents(template,
          new LocalPeerDirectory(), node -> io.locus.agent.AgentIdentity.random(),
          new Preload(4, 1_000_000, Preload.DEFAULT_PREFIX)))) {
        if (!host.awaitRegistered(Duration.ofSeconds(120))) {
          throw new IllegalStateException("agents did not register");
        }
        long registered = System.nanoTime();
        long completed = 0;
        // The measured loop, not a wait: counts completions as they arrive and reports however
        // many arrived by the deadline.
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (completed < n && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> rec : counter.poll(Duration.ofMillis(50))) {
            TaskEvent e = Topics.TASK_EVENTS.decode(rec.value());
            if (e.getType() == TaskEventType.COMPLETED) {
              completed++;
            }
          }
        }
        long end = System.nanoTime();
        System.out.printf("agent threads CPU: %.3f ms per decision%n", AgentCpu.nanos() / 1e6 / n);
        return new Result(completed, (end - t0) / 1_000_000, (end - registered) / 1_000_000,
            host.stats());
      }
    }
  }
}
