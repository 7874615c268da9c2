package io.locus.agent.sim;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code locus agent sim --metrics-port}: simulated agents on a real (embedded) broker serve their
 * per-node series over HTTP, and they move when a node runs a task.
 */
@Tag("integration")
@Timeout(60)
class SimMetricsServerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void perNodeSeriesAreServedAndMoveWithATask() throws Exception {
    String pool = "sim-metrics";
    AgentConfig template = AgentConfig.builder(pool).timeScale(0.01).heartbeatMs(500)
        .cacheCapacityBytes(500 * MB).build();
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      HostConfig cfg = HostConfig.builder(kafka.bootstrapServers())
          .nodeIds(HostConfig.nodeIds("m-", 2)).readCommitted(false).build();
      try (AgentHost<NodeAgent> host = AgentHost.start(cfg, new SimulatedAgents(template));
          SimMetricsServer server = SimMetricsServer.start("127.0.0.1", 0, host::statsByNode,
              n -> host.agent(n).isDraining(), template);
          KafkaProducer<byte[], byte[]> producer =
              new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()))) {
        assertThat(host.awaitRegistered(Duration.ofSeconds(30))).isTrue();
        String url = "http://127.0.0.1:" + server.port();
        String before = get(url + "/metrics");
        assertThat(value(before, "locus_agent_slots", "m-01", null)).isEqualTo(2);
        assertThat(value(before, "locus_agent_cache_capacity_bytes", "m-00", null))
            .isEqualTo(500 * MB);
        assertThat(value(before, "locus_agent_tasks_total", "m-01", "type=\"completed\""))
            .isZero();
        assertThat(value(before, "locus_agent_input_bytes_total", "m-01",
            "source=\"storage\"")).isZero();
        assertThat(get(url + "/health")).isEqualTo("ok\n");

        Decision d = decision("d1", 1, pool, "m-01", task("t1", 1.0, storage("f1", 50 * MB)));
        producer.send(new ProducerRecord<>(Topics.DECISIONS.name(),
            Topics.DECISIONS.key(d.getNode()), Topics.DECISIONS.value(d))).get();

        String after = Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ofMillis(50))
            .until("t1 completed on m-01", () -> get(url + "/metrics"),
                m -> value(m, "locus_agent_tasks_total", "m-01", "type=\"completed\"") >= 1);
        assertThat(value(after, "locus_agent_input_bytes_total", "m-01", "source=\"storage\""))
            .isEqualTo(50 * MB);
        assertThat(value(after, "locus_agent_cache_used_bytes", "m-01", null)).isEqualTo(50 * MB);
        assertThat(value(after, "locus_agent_cache_used_bytes", "m-00", null)).isZero();
        assertThat(value(after, "locus_agent_tasks_total", "m-00", "type=\"completed\""))
            .isZero();
        assertThat(value(after, "locus_agent_draining", "m-01", null)).isZero();
      }
    }
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  /** The value of {@code name}'s sample for {@code node} (and {@code extra} label), or fails. */
  private static long value(String text, String name, String node, String extra) {
    Pattern p = Pattern.compile("^" + Pattern.quote(name + "{pool=\"sim-metrics\",node=\"" + node
        + "\"" + (extra == null ? "" : "," + extra) + "} ") + "(\\d+)$", Pattern.MULTILINE);
    Matcher m = p.matcher(text);
    assertThat(m.find()).as(name + " of " + node + " in\n" + text).isTrue();
    return Long.parseLong(m.group(1));
  }
}
