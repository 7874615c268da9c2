package io.locus.agent.bench;

import io.locus.agent.AgentHost;
import io.locus.agent.AgentStats;
import io.locus.agent.real.AgentConfigFile;
import io.locus.agent.real.RealAgent;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What one real agent ({@code locus agent real}) costs per task: N PlaceTask decisions with a
 * {@code /bin/true} template and no inputs are published to an embedded broker for one node, then
 * the agent (4 slots, a local queue holding the rest) starts reading them from the beginning; the
 * run ends when every COMPLETED event is on the task-events topic. Not a test (speed is never
 * asserted): run it with JFR for a profile. Arguments: tasks per round (default 1000, at most 1024
 * + slots), slots (default 4), rounds (default 1). With several rounds, each round's tasks are
 * published when the round before has completed, and the CPU per task is printed per round: the
 * first rounds pay the JIT's warm-up, the last ones show the agent's steady cost.
 */
public final class RealAgentThroughput {
  private static final String POOL = "rbench";
  private static final String NODE = "r0";

  private RealAgentThroughput() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.locus");
    // As locus agent does at its start (-Djdk.lang.Process.launchMechanism=... to compare).
    io.locus.agent.real.ProcessLaunch.apply();
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int slots = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    Path dir = Files.createTempDirectory("real-agent-bench");
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      publish(kafka.bootstrapServers(), 0, n);
      Path yaml = Files.writeString(dir.resolve("agent.yaml"), String.join("\n",
          "pool: " + POOL,
          "node-id: " + NODE,
          "slots: " + slots,
          "data-dir: " + dir.resolve("data"),
          "http: {bind: 127.0.0.1, port: 0}",
          "tasks: {queue-depth: " + Math.max(0, Math.min(1024, n - slots)) + "}",
          "templates:",
          "  true: {command: [/bin/true]}",
          "default-template: 'true'",
          "kafka: {start-from: earliest, read-committed: false, create-topics: false"
              + (System.getProperty("bench.kafka.properties") == null ? ""
              : ", properties-file: " + System.getProperty("bench.kafka.properties")) + "}",
          ""));
      AgentConfigFile cfg = AgentConfigFile.load(yaml, null);
      TopicPartition events = new TopicPartition(Topics.TASK_EVENTS.name(),
          Topics.partitionOf(POOL, Topics.TASK_EVENTS.partitions()));
      try (KafkaConsumer<byte[], byte[]> counter =
          new KafkaConsumer<>(ClientConfigs.consumer(kafka.bootstrapServers(), null, false))) {
        counter.assign(List.of(events));
        counter.seekToEnd(List.of(events));
        counter.position(events);
        long t0 = System.nanoTime();
        AgentStats stats;
        long completed = 0;
        try (AgentHost<RealAgent> host = AgentHost.start(
            cfg.hostConfig(kafka.bootstrapServers()), cfg.agents())) {
          for (int round = 0; round < rounds; round++) {
            if (round > 0) {
              publish(kafka.bootstrapServers(), round * n, n);
            }
            long r0 = System.nanoTime();
            long cpu0 = AgentCpu.nanos();
            java.util.Map<String, Long> groups0 = AgentCpu.byGroup();
            long children0 = AgentCpu.childrenNanos();
            long target = (long) (round + 1) * n;
            // The measured loop, not a wait: counts completions as they arrive and reports however
            // many arrived by the deadline.
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (completed < target && System.nanoTime() < deadline) {
              for (ConsumerRecord<byte[], byte[]> rec : counter.poll(Duration.ofMillis(50))) {
                TaskEvent e = Topics.TASK_EVENTS.decode(rec.value());
                if (e.getType() == TaskEventType.COMPLETED) {
                  completed++;
                } else if (e.getType() != TaskEventType.STARTED) {
                  System.out.println("unexpected " + e);
                }
              }
            }
            double secs = (System.nanoTime() - r0) / 1e9;
            System.out.printf("round %d: %d tasks in %.2f s (%.0f/s); CPU per task: agent threads"
                    + " %.3f ms, task processes %.3f ms%n", round, n, secs, n / secs,
                (AgentCpu.nanos() - cpu0) / 1e6 / n, (AgentCpu.childrenNanos() - children0) / 1e6 / n);
            StringBuilder by = new StringBuilder("   by thread, ms per task:");
            AgentCpu.byGroup().forEach((g, c) -> by.append(String.format(" %s %.3f", g,
                (c - groups0.getOrDefault(g, 0L)) / 1e6 / n)));
            System.out.println(by);
          }
          stats = host.stats();
          System.out.printf("agent threads CPU: %.3f ms per task%n",
              AgentCpu.nanos() / 1e6 / (n * (long) rounds));
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("real agent, %d slots, /bin/true: %d COMPLETED in %d ms from agent"
            + " start (%.0f tasks/s)%n", slots, completed, ms, completed * 1000.0 / ms);
        System.out.println(stats);
      }
    }
  }

  static void publish(String bootstrap, int from, int n) {
    var p = ClientConfigs.producer(bootstrap);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
    p.put(ProducerConfig.ACKS_CONFIG, "1");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (int i = from; i < from + n; i++) {
        Decision d = Decision.newBuilder()
            .setDecisionId(POOL + "/place/" + i)
            .setEpoch(1)
            .setPool(POOL)
            .setNode(NODE)
            .setTimeMs(0)
            .setAction(PlaceTask.newBuilder()
                .setTaskId("t" + i)
                .setJobId("j")
                .setAttempt(0)
                .setInputs(List.of())
                .setComputeSeconds(0)
                .setReason(PlacementReason.newBuilder().setPolicy("FA").build())
                .build())
            .build();
        producer.send(new ProducerRecord<>(Topics.DECISIONS.name(),
            Topics.partitionOf(NODE, Topics.DECISIONS.partitions()),
            Topics.DECISIONS.key(NODE), Topics.DECISIONS.value(d)));
      }
      producer.flush();
    }
  }
}
