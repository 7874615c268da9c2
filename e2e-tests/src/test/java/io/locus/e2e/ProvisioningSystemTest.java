package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.connectors.DeliveryMode;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.ScaleAction;
import io.locus.schemas.ScaleRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dynamic provisioning through Kafka: a pool with no nodes gets work, the scheduler publishes
 * ACQUIRE requests, an autoscaler (here: the test) starts agents, the tasks complete, and idle nodes
 * are asked back with RELEASE and leave.
 */
@Tag("integration")
@Timeout(300)
class ProvisioningSystemTest {
  private static final String POOL = "e2e-drp";

  @Test
  void theSchedulerAsksForNodesUsesThemAndGivesThemBack() throws Exception {
    ProvisioningConfig drp = new ProvisioningConfig(true, 0, 4, 2, 1.0,
        ProvisioningConfig.Acquisition.ALL_AT_ONCE, ProvisioningConfig.Release.DISTRIBUTED_IDLE,
        3.0, 0, 1.0);
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(), 500, 3, ProvisioningConfig.staticPool(), Map.of(POOL, drp));
    Map<String, AgentHost<NodeAgent>> nodes = new LinkedHashMap<>();
    List<ScaleRequest> requests = new ArrayList<>();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        // Closed before the broker (resources close in reverse): agents say LEAVE to a live one.
        AutoCloseable stopNodes = () -> nodes.values().forEach(AgentHost::close);
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        KafkaConsumer<byte[], byte[]> scale = new KafkaConsumer<>(
            ClientConfigs.consumer(locus.bootstrapServers(), "autoscaler", false))) {
      TopicPartition tp = new TopicPartition(Topics.SCALE_REQUESTS.name(), 0);
      scale.assign(List.of(tp));
      scale.seekToBeginning(List.of(tp));

      List<JobSubmitted> jobs = DemoWorkload.generate(POOL, DemoWorkload.Spec.demo(200, 40, 9));
      long now = System.currentTimeMillis();
      for (JobSubmitted j : jobs) {
        j.setSubmitTimeMs(now);
        producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
            Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j)));
      }
      producer.flush();

      // The autoscaler: start a node per requested node, stop a node asked back.
      // Not a wait but the test's autoscaler loop (acts on each request), bounded by a deadline;
      // the assertions after it report what did not happen.
      long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
      boolean released = false;
      while (System.nanoTime() < deadline && !(tracker.stats(POOL).completed == 200 && released)) {
        for (ConsumerRecord<byte[], byte[]> r : scale.poll(Duration.ofMillis(200))) {
          ScaleRequest req = Topics.SCALE_REQUESTS.decode(r.value());
          requests.add(req);
          if (req.getAction() == ScaleAction.ACQUIRE) {
            for (int i = 0; i < req.getNodes(); i++) {
              String id = POOL + "-node-" + nodes.size();
              nodes.put(id, startNode(locus, id));
            }
          } else {
            AgentHost<NodeAgent> h = nodes.remove(req.getNode());
            if (h != null) {
              h.close(); // sends LEAVE
            }
            released = true;
          }
        }
        locus.checkJobAlive();
      }
      assertThat(tracker.stats(POOL).completed).isEqualTo(200);
      assertThat(requests).extracting(ScaleRequest::getAction).contains(ScaleAction.ACQUIRE);
      int acquired = requests.stream().filter(r -> r.getAction() == ScaleAction.ACQUIRE)
          .mapToInt(ScaleRequest::getNodes).sum();
      assertThat(acquired).isBetween(1, 4); // never beyond max nodes
      assertThat(released).as("an idle node was asked back: %s", requests).isTrue();
      assertThat(requests).extracting(ScaleRequest::getRequestId).doesNotHaveDuplicates();
    }
  }

  private static AgentHost<NodeAgent> startNode(EmbeddedLocus locus, String id) throws Exception {
    AgentConfig template = AgentConfig.builder(POOL).slots(2).cacheCapacityBytes(1_000_000_000L)
        .timeScale(0.005).heartbeatMs(500).build();
    AgentHost<NodeAgent> h = AgentHost.start(HostConfig.builder(locus.bootstrapServers())
        .nodeIds(List.of(id)).startFrom(HostConfig.StartFrom.EARLIEST).ensureTopics(false)
        .build(), new SimulatedAgents(template));
    assertThat(h.awaitRegistered(Duration.ofSeconds(30))).isTrue();
    return h;
  }
}
