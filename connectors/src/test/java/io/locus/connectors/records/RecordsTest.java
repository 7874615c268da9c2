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

  /** A decision whose PlaceTask carries {@code n} bytes of task id: big enough to be unwritable. */
  static Decision bigDecision(String node, int n) {
    Decision d = Fixtures.decisionFor(Fixtures.job("p", "j-big").build(), node);
    ((io.locus.schemas.PlaceTask) d.getAction()).setTaskId("t".repeat(n));
    return d;
  }

  @Test
  void anOversizedRecordBecomesAnUnwritableDeadLetter() throws Exception {
    TopicRecordSerializer<Decision> s = InstantiationUtil.clone(
        new TopicRecordSerializer<>(Topics.DECISIONS, Decision::getNode));
    Decision big = bigDecision("node-3", 1_100_000);
    int valueBytes = Topics.DECISIONS.value(big).length;

    var record = s.serialize(big, null, 1L);
    assertThat(record.topic()).isEqualTo("dead-letters");
    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("decisions");
    DeadLetter dl = Topics.DEAD_LETTERS.decode(record.value());
    assertThat(dl.getCode()).isEqualTo("unwritable");
    assertThat(dl.getSourceTopic()).isEqualTo("decisions");
    assertThat(dl.getPartition()).isEqualTo(-1);
    assertThat(dl.getOffset()).isEqualTo(-1L);
    assertThat(dl.getKey()).isEqualTo(ByteBuffer.wrap("node-3".getBytes(StandardCharsets.UTF_8)));
    assertThat(dl.getValue().remaining()).isEqualTo(TopicRecordSerializer.MAX_DEAD_VALUE_BYTES);
    assertThat(dl.getReason()).isEqualTo("output record to decisions with key 'node-3' is "
        + (valueBytes + 6) + " bytes (key 6 + value " + valueBytes + "), more than the limit of"
        + " 1000000 bytes; not written; value cut to its first 65536 bytes");
    assertThat(record.value().length).isLessThan(70_000);

    // just at the limit is still written where it belongs, one byte more is not
    // (the string's length prefix shrinks by a byte below 2^20 chars: +1 finds the exact fit)
    int atLimit = 1_100_000 - (valueBytes + 6 - 1_000_000) + 1;
    var fits = s.serialize(bigDecision("node-3", atLimit), null, 1L);
    assertThat(fits.topic()).isEqualTo("decisions");
    assertThat(fits.key().length + fits.value().length).isEqualTo(1_000_000);
    assertThat(s.serialize(bigDecision("node-3", atLimit + 1), null, 1L).topic())
        .isEqualTo("dead-letters");
  }

  @Test
  void theLimitComesFromMaxRequestSize() {
    assertThat(TopicRecordSerializer.maxRecordBytes(null)).isEqualTo(1_000_000);
    var props = new java.util.Properties();
    assertThat(TopicRecordSerializer.maxRecordBytes(props)).isEqualTo(1_000_000);
    props.setProperty("max.request.size", "5000");
    assertThat(TopicRecordSerializer.maxRecordBytes(props)).isEqualTo(5000 - 1024);
    props.setProperty("max.request.size", "lots");
    assertThatThrownBy(() -> TopicRecordSerializer.maxRecordBytes(props))
        .hasMessageContaining("max.request.size 'lots' is not a number");
    props.setProperty("max.request.size", "1000");
    assertThatThrownBy(() -> TopicRecordSerializer.maxRecordBytes(props))
        .hasMessageContaining("leaves no room");

    TopicRecordSerializer<Decision> small =
        new TopicRecordSerializer<>(Topics.DECISIONS, Decision::getNode, 4000);
    assertThat(small.serialize(bigDecision("n", 100), null, 1L).topic()).isEqualTo("decisions");
    var record = small.serialize(bigDecision("n", 5000), null, 1L);
    assertThat(record.topic()).isEqualTo("dead-letters");
    // the copy is cut to a quarter of a small limit, so the dead letter fits too
    assertThat(Topics.DEAD_LETTERS.decode(record.value()).getValue().remaining()).isEqualTo(1000);
    assertThat(record.value().length).isLessThan(4000);
  }

  @Test
  void anOversizedDeadLetterNamesTheRecordItWasAbout() {
    TopicRecordSerializer<DeadLetter> s =
        new TopicRecordSerializer<>(Topics.DEAD_LETTERS, DeadLetter::getSourceTopic, 2000);
    DeadLetter huge = new DeadLetter("job-arrivals", 2, 40L, null,
        ByteBuffer.wrap(new byte[5000]), "bad", 3L, "corrupt");
    var record = s.serialize(huge, null, 1L);
    DeadLetter dl = Topics.DEAD_LETTERS.decode(record.value());
    assertThat(dl.getCode()).isEqualTo("unwritable");
    assertThat(dl.getReason()).contains("(a dead letter for job-arrivals-2@40, code corrupt: bad)");
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
    roundTrip(LocusTypes.SCHEDULER_INPUT, new SchedulerInput("p", job, "job-arrivals", 1, 2L, 9L));
    roundTrip(LocusTypes.SCHEDULER_INPUT,
        new SchedulerInput("p", Fixtures.register("p", "n").build(), "node-reports", 0, 5L, -1L));
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
