package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.NonValidationKeyword;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.locus.helm.Chart.Manifests;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a cluster with the Flink Kubernetes Operator and Strimzi would accept: every rendered
 * FlinkDeployment and KafkaTopic checked against its CRD's openAPIV3Schema (types, enums,
 * required fields, bounds) and for fields the API server would silently prune (a misspelt key).
 *
 * <p>The FlinkDeployment CRD is the one the operator's api jar ships
 * (org.apache.flink:flink-kubernetes-operator-api:1.10.0, the newest on Maven Central:
 * META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml, an apiextensions/v1 CRD serving
 * v1beta1). Its flinkVersion enum stops at v1_20; the operator releases that run Flink 2.x (not
 * on Central) add v2_0, v2_1 and v2_2 to that enum, so the test adds exactly those three. The
 * KafkaTopic CRD is a trimmed copy (src/test/resources/crds; its source is written at its top).
 */
@Timeout(60)
class CrdAcceptanceTest {
  /** The apiextensions.k8s.io/v1 CRD (the operator's helm chart installs this one), version v1beta1. */
  static final String FLINK_CRD = "META-INF/fabric8/flinkdeployments.flink.apache.org-v1.yml";
  static final String TOPIC_CRD = "crds/kafkatopics.kafka.strimzi.io-v1.yaml";
  static final List<String> FLINK_2_VERSIONS = List.of("v2_0", "v2_1", "v2_2");

  /** JSON Schema draft 4 (what OpenAPI v3 schemas build on), with Kubernetes' x- keywords known. */
  static final JsonSchemaFactory FACTORY = JsonSchemaFactory.builder(
          JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4))
      .metaSchema(JsonMetaSchema.builder(JsonMetaSchema.getV4())
          .keyword(new NonValidationKeyword("x-kubernetes-int-or-string"))
          .keyword(new NonValidationKeyword("x-kubernetes-preserve-unknown-fields"))
          .keyword(new NonValidationKeyword("x-kubernetes-embedded-resource"))
          .keyword(new NonValidationKeyword("x-kubernetes-list-type"))
          .keyword(new NonValidationKeyword("x-kubernetes-list-map-keys"))
          .keyword(new NonValidationKeyword("x-kubernetes-map-type"))
          .build())
      .build();

  @TempDir Path tmp;

  /** A CRD version's schema, its group and version. */
  record Crd(String group, String version, String kind, JsonNode schema) {
    String apiVersion() {
      return group + "/" + version;
    }
  }

  static Crd load(String resource, String version) {
    try (InputStream in = CrdAcceptanceTest.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the test class path");
      }
      JsonNode crd = Chart.YAML.readTree(in);
      for (JsonNode v : crd.at("/spec/versions")) {
        if (v.path("name").asText().equals(version)) {
          assertThat(v.path("served").asBoolean(true)).as("%s %s served", resource, version).isTrue();
          return new Crd(crd.at("/spec/group").asText(), version, crd.at("/spec/names/kind").asText(),
              v.at("/schema/openAPIV3Schema"));
        }
      }
      throw new IllegalStateException(resource + " has no version " + version);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Crd flinkDeployment() {
    Crd crd = load(FLINK_CRD, "v1beta1");
    ArrayNode versions = (ArrayNode) crd.schema().at("/properties/spec/properties/flinkVersion/enum");
    assertThat(versions).as("the CRD's flinkVersion enum").isNotEmpty();
    FLINK_2_VERSIONS.forEach(versions::add);
    return crd;
  }

  static Crd kafkaTopic() {
    return load(TOPIC_CRD, "v1");
  }

  /** Schema violations and pruned fields of one resource; empty when the API server accepts it. */
  static List<String> problems(Crd crd, JsonNode resource) {
    List<String> out = new ArrayList<>();
    if (!crd.apiVersion().equals(resource.path("apiVersion").asText())) {
      out.add("apiVersion " + resource.path("apiVersion").asText() + " is not " + crd.apiVersion());
    }
    if (!crd.kind().equals(resource.path("kind").asText())) {
      out.add("kind " + resource.path("kind").asText() + " is not " + crd.kind());
    }
    String name = resource.at("/metadata/name").asText();
    if (!name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
      out.add("metadata.name '" + name + "' is not a DNS-1123 subdomain");
    }
    JsonSchema schema = FACTORY.getSchema(crd.schema().at("/properties/spec"));
    Set<ValidationMessage> errors = schema.validate(resource.path("spec"));
    errors.forEach(e -> out.add(e.getMessage()));
    pruned(crd.schema().at("/properties/spec"), resource.path("spec"), "spec", out);
    return out;
  }

  /** Fields a structural schema does not declare: the API server drops them without a word. */
  static void pruned(JsonNode schema, JsonNode value, String path, List<String> out) {
    if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
      return;
    }
    if (value.isObject()) {
      JsonNode props = schema.path("properties");
      JsonNode additional = schema.path("additionalProperties");
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        if (props.has(e.getKey())) {
          pruned(props.get(e.getKey()), e.getValue(), path + "." + e.getKey(), out);
        } else if (additional.isObject()) {
          pruned(additional, e.getValue(), path + "." + e.getKey(), out);
        } else {
          out.add(path + "." + e.getKey() + ": not in the CRD's schema (the API server would drop it)");
        }
      }
    } else if (value.isArray() && schema.has("items")) {
      int i = 0;
      for (JsonNode item : value) {
        pruned(schema.get("items"), item, path + "[" + i++ + "]", out);
      }
    }
  }

  static Stream<Arguments> valueSets() {
    return Stream.of(Arguments.of("defaults", null),
        Arguments.of("multi-pool", ValueSets.MULTI_POOL),
        Arguments.of("secured", ValueSets.NO_STRIMZI_SECURED),
        Arguments.of("existing secrets, monitors", ValueSets.MONITORED_EXISTING_SECRETS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueSets")
  void renderedCustomResourcesMatchTheirCrds(String name, String values) {
    Manifests m = Chart.template(values == null ? null : Chart.values(values), tmp);
    Crd flink = flinkDeployment();
    Crd topic = kafkaTopic();
    List<JsonNode> deployments = m.ofKind("FlinkDeployment");
    assertThat(deployments).hasSize(1);
    for (JsonNode d : deployments) {
      assertThat(problems(flink, d)).as("FlinkDeployment (%s)", name).isEmpty();
    }
    for (JsonNode t : m.ofKind("KafkaTopic")) {
      assertThat(problems(topic, t)).as("KafkaTopic %s (%s)", t.at("/metadata/name"), name).isEmpty();
    }
  }

  /** The checks above can fail: a misspelt key, a wrong type, a value outside an enum or a bound. */
  @Test
  void theChecksCatchWhatAClusterWouldRefuseOrDrop() {
    Manifests m = Chart.template(null, tmp);
    Crd flink = flinkDeployment();
    ObjectNode fd = (ObjectNode) m.one("FlinkDeployment").deepCopy();
    ((ObjectNode) fd.at("/spec/job")).put("upgradeMod", "savepoint");
    assertThat(problems(flink, fd)).anyMatch(p -> p.contains("spec.job.upgradeMod"));

    fd = (ObjectNode) m.one("FlinkDeployment").deepCopy();
    ((ObjectNode) fd.at("/spec/job")).put("parallelism", "three");
    assertThat(problems(flink, fd)).anyMatch(p -> p.contains("parallelism"));

    fd = (ObjectNode) m.one("FlinkDeployment").deepCopy();
    ((ObjectNode) fd.at("/spec/job")).put("upgradeMode", "snapshot");
    assertThat(problems(flink, fd)).anyMatch(p -> p.contains("upgradeMode"));

    fd = (ObjectNode) m.one("FlinkDeployment").deepCopy();
    ((ObjectNode) fd.path("spec")).put("flinkVersion", "v3_0");
    assertThat(problems(flink, fd)).anyMatch(p -> p.contains("flinkVersion"));

    ObjectNode t = (ObjectNode) m.ofKind("KafkaTopic").get(0).deepCopy();
    ((ObjectNode) t.path("spec")).put("partitions", 0);
    assertThat(problems(kafkaTopic(), t)).anyMatch(p -> p.contains("partitions"));
    t = (ObjectNode) m.ofKind("KafkaTopic").get(0).deepCopy();
    t.put("apiVersion", "kafka.strimzi.io/v1beta2");
    assertThat(problems(kafkaTopic(), t)).anyMatch(p -> p.contains("apiVersion"));
  }
}
