package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.helm.Chart.Manifests;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secret values given in values (a sentinel each) reach a Secret and nothing else: no ConfigMap,
 * no container argument or environment value, no other document, in plain or in base64.
 */
@Timeout(60)
class SecretsNeverRenderedTest {
  static final String KAFKA = "SENTINEL-kafka-sasl-password-7f3a";
  static final String DECISION = "SENTINEL-decision-secret-91c2";
  static final String NODE = "SENTINEL-cluster-node-secret-5be8";

  @TempDir Path tmp;

  static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  /** Every container's args, command and env values of a document, wherever its pod spec is. */
  static List<String> containerStrings(JsonNode doc) {
    List<String> out = new ArrayList<>();
    for (JsonNode containers : doc.findValues("containers")) {
      for (JsonNode c : containers) {
        c.path("args").forEach(a -> out.add(a.asText()));
        c.path("command").forEach(a -> out.add(a.asText()));
        c.path("env").forEach(e -> out.add(e.path("value").asText()));
      }
    }
    return out;
  }

  @Test
  void secretValuesAppearOnlyInTheSecret() {
    String values = """
        topics: {strimzi: {enabled: false}}
        security:
          kafka: {properties: "security.protocol=SASL_SSL\\nsasl.jaas.config=x password=\\"%s\\";\\n"}
          decisionSecret: {value: "%s"}
          nodeSecret: {value: "%s"}
        metrics: {serviceMonitor: {enabled: true}, podMonitor: {enabled: true}}
        """.formatted(KAFKA, DECISION, NODE);
    Manifests m = Chart.templateWithHooks(Chart.values(values), tmp);
    List<String> forbidden = new ArrayList<>();
    for (String s : List.of(KAFKA, DECISION, NODE)) {
      forbidden.add(s);
      forbidden.add(b64(s));
    }

    assertThat(m.ofKind("ConfigMap")).isNotEmpty();
    for (JsonNode doc : m.docs()) {
      if (doc.path("kind").asText().equals("Secret")) {
        continue;
      }
      String text = doc.toString();
      for (String f : forbidden) {
        assertThat(text).as("%s %s", doc.path("kind").asText(), doc.at("/metadata/name").asText())
            .doesNotContain(f);
      }
      for (String s : containerStrings(doc)) {
        for (String f : List.of(KAFKA, DECISION, NODE)) {
          assertThat(s).doesNotContain(f);
        }
      }
    }
    // ... and they do reach the Secret (the check above could not fail if they reached nothing).
    JsonNode data = m.named("Secret", "prod-locus-secrets").path("data");
    assertThat(new String(Base64.getDecoder().decode(data.path("decision.secret").asText()),
        StandardCharsets.UTF_8)).isEqualTo(DECISION);
    assertThat(new String(Base64.getDecoder().decode(data.path("node.secret").asText()),
        StandardCharsets.UTF_8)).isEqualTo(NODE);
    assertThat(new String(Base64.getDecoder().decode(data.path("client.properties").asText()),
        StandardCharsets.UTF_8)).contains(KAFKA);
    // The pods that need them mount that Secret.
    assertThat(m.one("FlinkDeployment").toString()).contains("prod-locus-secrets");
    assertThat(m.one("DaemonSet").toString()).contains("prod-locus-secrets");
  }
}
