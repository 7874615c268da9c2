package io.locus.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.connectors.records.LocusTypes;
import java.lang.reflect.Field;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.junit.jupiter.api.Test;

/**
 * The client settings the builders produce. The connector keeps them in private fields, read here
 * by reflection: worth the coupling, since a wrong setting (no read_committed, no transaction
 * timeout) only shows up as a rare production failure. The broker test checks the behaviour.
 */
class ConnectorConfigTest {
  private static Object field(Object target, String name) throws Exception {
    Field f = target.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(target);
  }

  @Test
  void inputsSourceReadsCommittedByDefault() throws Exception {
    KafkaSource<?> source = LocusSources.inputs("h:9092", null, "g1");
    Properties props = (Properties) field(source, "props");
    assertThat(props.getProperty("isolation.level")).isEqualTo("read_committed");
    assertThat(props.getProperty("group.id")).isEqualTo("g1");
    assertThat(props.getProperty("bootstrap.servers")).isEqualTo("h:9092");
    assertThat(props.getProperty("auto.offset.reset")).isEqualTo("earliest");
    assertThat(source.getProducedType()).isEqualTo(LocusTypes.RAW_RECORD);
    assertThat(LocusSources.INPUT_TOPICS)
        .containsExactly("job-arrivals", "task-events", "node-reports", "control", "job-commands");
  }

  @Test
  void inputsSourceOverridesWinExceptExplicitArguments() throws Exception {
    Properties overrides = new Properties();
    overrides.setProperty("isolation.level", "read_uncommitted");
    overrides.setProperty("security.protocol", "SASL_SSL");
    overrides.setProperty("group.id", "ignored");
    Properties props = (Properties) field(LocusSources.inputs("h:9092", overrides, "g1"), "props");
    assertThat(props.getProperty("isolation.level")).isEqualTo("read_uncommitted");
    assertThat(props.getProperty("security.protocol")).isEqualTo("SASL_SSL");
    assertThat(props.getProperty("group.id")).isEqualTo("g1");
  }

  @Test
  void inputsSourceNeedsBootstrapAndGroup() {
    assertThatThrownBy(() -> LocusSources.inputs(" ", null, "g"))
        .hasMessage("bootstrap must not be blank");
    assertThatThrownBy(() -> LocusSources.inputs("h:1", null, ""))
        .hasMessage("groupId must not be blank");
  }

  @Test
  void exactlyOnceSinkIsTransactionalWithAPerTopicPrefix() throws Exception {
    KafkaSink<?> sink = LocusSinks.decisions("h:9092", null, DeliveryMode.EXACTLY_ONCE, "job-1");
    Properties props = (Properties) field(sink, "kafkaProducerConfig");
    assertThat(field(sink, "deliveryGuarantee")).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
    assertThat(field(sink, "transactionalIdPrefix")).isEqualTo("job-1-decisions");
    assertThat(props.getProperty("transaction.timeout.ms")).isEqualTo("900000");
    assertThat(props.getProperty("acks")).isEqualTo("all");
    assertThat(props.getProperty("bootstrap.servers")).isEqualTo("h:9092");
    assertThat(field(LocusSinks.deadLetters("h:9092", null, DeliveryMode.EXACTLY_ONCE, "job-1"),
        "transactionalIdPrefix")).isEqualTo("job-1-dead-letters");
    assertThat(field(LocusSinks.metrics("h:9092", null, DeliveryMode.EXACTLY_ONCE, "job-1"),
        "transactionalIdPrefix")).isEqualTo("job-1-scheduler-metrics");
  }

  @Test
  void atLeastOnceSinkIsIdempotentWithAcksAll() throws Exception {
    KafkaSink<?> sink = LocusSinks.metrics("h:9092", null, DeliveryMode.AT_LEAST_ONCE, null);
    Properties props = (Properties) field(sink, "kafkaProducerConfig");
    assertThat(field(sink, "deliveryGuarantee")).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
    assertThat(props.getProperty("acks")).isEqualTo("all");
    assertThat(props.getProperty("enable.idempotence")).isEqualTo("true");
  }

  @Test
  void sinkOverridesApply() throws Exception {
    Properties overrides = new Properties();
    overrides.setProperty("linger.ms", "20");
    overrides.setProperty("bootstrap.servers", "ignored:1");
    Properties props = (Properties) field(
        LocusSinks.deadLetters("h:9092", overrides, DeliveryMode.AT_LEAST_ONCE, null),
        "kafkaProducerConfig");
    assertThat(props.getProperty("linger.ms")).isEqualTo("20");
    assertThat(props.getProperty("bootstrap.servers")).isEqualTo("h:9092");
  }

  @Test
  void exactlyOnceNeedsATransactionalIdPrefix() {
    assertThatThrownBy(() -> LocusSinks.decisions("h:9092", null, DeliveryMode.EXACTLY_ONCE, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("transactionalIdPrefix");
    assertThatThrownBy(() -> LocusSinks.decisions("h:9092", null, DeliveryMode.EXACTLY_ONCE, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("transactionalIdPrefix");
  }
}
