package io.locus.connectors.records;

import io.locus.schemas.internal.RawRecord;
import java.nio.ByteBuffer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Wraps every Kafka record, undecoded, with its coordinates. Decoding happens downstream in
 * {@code ParseAndValidate}, where a bad record can go to the dead-letter side output: a
 * deserializer that threw here would fail the source and restart the job on the same poison
 * record forever (ARCHITECTURE rule 5). So this class must never throw.
 */
public final class RawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {
  private static final long serialVersionUID = 1L;

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
    out.collect(toRaw(record));
  }

  /** Pure conversion; the byte arrays are wrapped, not copied (Kafka hands us fresh arrays). */
  public static RawRecord toRaw(ConsumerRecord<byte[], byte[]> record) {
    return new RawRecord(
        record.topic(),
        record.partition(),
        record.offset(),
        record.timestamp(),
        record.key() == null ? null : ByteBuffer.wrap(record.key()),
        record.value() == null ? null : ByteBuffer.wrap(record.value()));
  }

  @Override
  public TypeInformation<RawRecord> getProducedType() {
    return LocusTypes.RAW_RECORD;
  }
}
