package io.locus.kafka;

import io.locus.schemas.codec.AvroCodec;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * One topic: its name, partition count, what its key is, its value codec and its topic configs
 * (retention or compaction). Keys are UTF-8 strings; values are Avro single-object encoded.
 */
public record TopicSpec<V extends SpecificRecord>(
    String name, int partitions, String keyMeaning, AvroCodec<V> codec, Map<String, String> configs) {

  public byte[] key(String key) {
    return key == null ? null : key.getBytes(StandardCharsets.UTF_8);
  }

  public byte[] value(V value) {
    return codec.encode(value);
  }

  public V decode(byte[] value) {
    return codec.decode(value);
  }

  public Class<V> valueType() {
    return codec.type();
  }
}
