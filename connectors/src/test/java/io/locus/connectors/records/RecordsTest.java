package io.locus.connectors.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.connectors.Fixtures;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.codec.Codecs;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The (de)serializers at the Kafka boundary and the Flink types between operators. */
class RecordsTest {
  @Test
  void rawRecordKeepsEverythingAndNeverDecodes() {
    var withBytes = new ConsumerRecord<>("job-arrivals", 2, 17L, new byte[] {1}, new byte[] {9, 9});
    RawRecord r = RawRecordDeserializer.toRaw(withBytes);
    assertThat(r.getTopic()).isEqualTo("job-arrivals");
    assertThat(r.getPartition()).isEqualTo(2);
    assertThat(r.getOffset()).isEqualTo(17L);
    assertThat(r.getTimestampMs()).isEqualTo(withBytes.timestamp());
    assertThat(r.getKey()).isEqualTo(ByteBuffer.wrap(new byte[] {1}));
    assertThat(r.getValue()).isEqualTo(ByteBuffer.wrap(new byte[] {9, 9}));

    RawRecord empty = RawRecordDeserializer.toRaw(
        new ConsumerRecord<byte[], byte[]>("control", 0, 0L, null, null));
    assertThat(empty.getKey()).isNull();
    assertThat(empty.getValue()).isNull();
  }

  @Test
  void deserializerEmitsOneRecordPerKafkaRecord() throws Exception {
    List<RawRecord> out = new ArrayList<>();
    var collector = new org.apache.flink.api.common.functions.util.ListCollector<>(out);
    new RawRecordDeserializer().deserialize(
        new ConsumerRecord<>("x", 0, 1L, null, new byte[] {0}), collector);
    assertThat(out).hasSize(1);
    assertThat(new RawRecordDeserializer().getProducedType()).isEqualTo(LocusTypes.RAW_RECORD);
  }

  @Test
  void serializerWritesKeyAndEncodedValueAfterJavaSerialization() throws Exception {
    Decision d = Fixtures.decisionFor(Fixtures.job("p", "j-1").build(), "node-7");
    // Flink ships the serializer to the task managers by Java serialization: test the copy.
    TopicRecordSerializer<Decision> s = InstantiationUtil.clone(
        new TopicRecordSerializer<>(Topics.DECISIONS, Decision::getNode));
    var record = s.serialize(d, null, 123L);
    assertThat(record.topic()).isEqualTo("decisions");
    assertThat(record.partition()).isNull();
    assertThat(record.timestamp()).isNull();
    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("node-7");
    assertThat(Topics.DECISIONS.decode(record.value())).isEqualTo(d);
  }

  @Test
  void serializerRejectsTopicsOutsideTheRegistry() {
    var unregistered = new TopicSpec<>("nope", 1, "none", Codecs.DEAD_LETTER, Map.of());
    assertThatThrownBy(() -> new TopicRecordSerializer<>(unregistered, DeadLetter::getSourceTopic))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown topic 'nope'");
    var wrongType = new TopicSpec<>("decisions", 1, "none", Codecs.DEAD_LETTER, Map.of());
    assertThatThrownBy(() -> new TopicRecordSerializer<>(wrongType, DeadLetter::getSourceTopic))
        .hasMessageContaining("carries io.locus.schemas.Decision");
  }

  @Test
  void typesUseAvroSerializersAndRoundTripUnions() throws Exception {
    JobSubmitted job = Fixtures.job("p", "j-1").build();
    roundTrip(LocusTypes.SCHEDULER_INPUT, new SchedulerInput("p", job, "job-arrivals", 1, 2L));
    roundTrip(LocusTypes.SCHEDULER_INPUT,
        new SchedulerInput("p", Fixtures.register("p", "n").build(), "node-reports", 0, 5L));
    roundTrip(LocusTypes.DECISION, Fixtures.decisionFor(job, "n"));
    roundTrip(LocusTypes.RAW_RECORD,
        new RawRecord("t", 0, 1L, 2L, null, ByteBuffer.wrap(new byte[] {1, 2})));
    roundTrip(LocusTypes.DEAD_LETTER, new DeadLetter("t", 0, 1L, null, null, "why", 3L, "too-large"));
  }

  private static <T> void roundTrip(TypeInformation<T> type, T value) throws Exception {
    TypeSerializer<T> ser = type.createSerializer(new SerializerConfigImpl());
    assertThat(ser.getClass().getName()).contains("Avro");
    DataOutputSerializer out = new DataOutputSerializer(256);
    ser.serialize(value, out);
    T back = ser.deserialize(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));
    assertThat(back).isEqualTo(value);
  }
}
