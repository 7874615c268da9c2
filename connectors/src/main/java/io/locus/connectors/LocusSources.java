package io.locus.connectors;

import io.locus.connectors.records.RawRecordDeserializer;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.internal.RawRecord;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** Kafka sources of the scheduler job. */
public final class LocusSources {
  /** Names of the input topics, in {@link Topics#INPUTS} order. */
  public static final List<String> INPUT_TOPICS =
      Topics.INPUTS.stream().map(TopicSpec::name).toList();

  private LocusSources() {}

  /**
   * One source over the input topics, emitting every record undecoded as a
   * {@link RawRecord} (decode and validate with {@code ParseAndValidate}).
   *
   * <p>Starting position, when the job does not restore from a checkpoint or savepoint (which
   * always wins): the group's committed offsets, else the earliest offset, so a new deployment
   * sees the whole retained history and a redeployment without state resumes where the old one
   * committed. Offsets are committed on checkpoint completion (the connector's default when a
   * group id is set); they are for monitoring and this fallback, not for correctness.
   *
   * <p>Isolation defaults to {@code read_committed}: inputs may come from transactional producers
   * (e.g. a replay tool) and an aborted transaction must not reach the scheduler. It costs
   * nothing on topics written without transactions. {@code clientOverrides} (security settings,
   * or {@code isolation.level=read_uncommitted}) win over this default, but not over the
   * explicit arguments.
   *
   * @param bootstrap Kafka bootstrap servers
   * @param clientOverrides extra consumer properties; may be null
   * @param groupId consumer group, also the client-id prefix; unique per job
   */
  public static KafkaSource<RawRecord> inputs(String bootstrap, Properties clientOverrides,
      String groupId) {
    return raw(bootstrap, clientOverrides, groupId, groupId, INPUT_TOPICS);
  }

  /**
   * The workflow runner's inputs: {@code workflows} and the scheduler's own {@code job-status},
   * read back (the loop through Kafka, see {@code WorkflowRunner}), as {@link #inputs} reads: the
   * same group (offsets are per partition), {@code read_committed} (job-status is written in the
   * scheduler's transactions), its own client-id prefix.
   */
  public static KafkaSource<RawRecord> workflowInputs(String bootstrap,
      Properties clientOverrides, String groupId) {
    return raw(bootstrap, clientOverrides, groupId, groupId + "-workflows",
        List.of(Topics.WORKFLOWS.name(), Topics.JOB_STATUS.name()));
  }

  @SuppressWarnings("deprecation") // OffsetResetStrategy: the connector's API still takes it.
  private static KafkaSource<RawRecord> raw(String bootstrap, Properties clientOverrides,
      String groupId, String clientIdPrefix, List<String> topics) {
    requireNonBlank(bootstrap, "bootstrap");
    requireNonBlank(groupId, "groupId");
    Properties props = new Properties();
    props.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    if (clientOverrides != null) {
      props.putAll(clientOverrides);
    }
    return KafkaSource.<RawRecord>builder()
        .setProperties(props) // first, so the explicit arguments below win over overrides
        .setBootstrapServers(bootstrap)
        .setGroupId(groupId)
        .setClientIdPrefix(clientIdPrefix)
        .setTopics(topics)
        .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
        .setDeserializer(new RawRecordDeserializer())
        .build();
  }

  static void requireNonBlank(String value, String what) {
    if (Objects.requireNonNull(value, what).isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
  }
}
