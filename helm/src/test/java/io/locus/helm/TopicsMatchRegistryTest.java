package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.helm.Chart.Manifests;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The chart's topics are the kafka module's {@code Topics.ALL}: names, partitions and configs. */
@Timeout(60)
class TopicsMatchRegistryTest {
  @TempDir Path tmp;

  record Spec(int partitions, Map<String, String> config) {}

  static Map<String, Spec> registry() {
    Map<String, Spec> out = new LinkedHashMap<>();
    for (TopicSpec<?> t : Topics.ALL) {
      out.put(t.name(), new Spec(t.partitions(), new TreeMap<>(t.configs())));
    }
    return out;
  }

  @Test
  void renderedKafkaTopicsAreTheRegistrysTopics() {
    Manifests m = Chart.template(null, tmp);
    Map<String, Spec> rendered = new LinkedHashMap<>();
    for (JsonNode t : m.ofKind("KafkaTopic")) {
      assertThat(t.path("apiVersion").asText()).isEqualTo("kafka.strimzi.io/v1");
      assertThat(t.at("/metadata/labels/strimzi.io~1cluster").asText()).isEqualTo("locus");
      assertThat(t.at("/spec/replicas").asInt()).isEqualTo(3);
      Map<String, String> config = new TreeMap<>();
      t.at("/spec/config").properties().forEach(e -> config.put(e.getKey(), e.getValue().asText()));
      rendered.put(t.at("/spec/topicName").asText(), new Spec(t.at("/spec/partitions").asInt(), config));
    }
    assertThat(rendered).isEqualTo(registry());
  }
}
