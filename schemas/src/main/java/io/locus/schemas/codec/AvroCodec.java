package io.locus.schemas.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro single-object encoding for one record type: a 2-byte marker, the writer schema's 64-bit
 * CRC fingerprint, then the binary body. The decoder knows the current schema and every older
 * version shipped under {@code io/locus/schemas/history/}, so records written by older producers
 * are resolved to the current reader schema. Thread-safe.
 */
public final class AvroCodec<T extends SpecificRecord> {
  private final Class<T> type;
  private final Schema schema;
  private final BinaryMessageEncoder<T> encoder;
  private final BinaryMessageDecoder<T> decoder;
  private final List<Schema> known = new ArrayList<>();

  public AvroCodec(Class<T> type) {
    this.type = type;
    this.schema = SpecificData.get().getSchema(type);
    this.encoder = new BinaryMessageEncoder<>(SpecificData.get(), schema);
    this.decoder = new BinaryMessageDecoder<>(SpecificData.get(), schema);
    known.add(schema);
    for (Schema old : SchemaHistory.versionsOf(schema.getName())) {
      addWriterSchema(old);
    }
  }

  /** Lets the decoder resolve records written with {@code writer} (an older or newer version). */
  public void addWriterSchema(Schema writer) {
    decoder.addSchema(writer);
    known.add(writer);
  }

  public Class<T> type() {
    return type;
  }

  public Schema schema() {
    return schema;
  }

  public byte[] encode(T record) {
    try {
      ByteBuffer buf = encoder.encode(record);
      byte[] out = new byte[buf.remaining()];
      buf.get(out);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      throw new SchemaException("cannot encode " + schema.getName() + ": " + e.getMessage(), e);
    }
  }

  /** Decodes one record; any failure is a {@link SchemaException} with a readable reason. */
  public T decode(byte[] bytes) {
    if (bytes == null) {
      throw new SchemaException("empty value: expected a " + schema.getName() + " record");
    }
    try {
      return decoder.decode(bytes);
    } catch (MissingSchemaException e) {
      throw new SchemaException(
          "unknown schema fingerprint " + fingerprintOf(bytes) + " for " + schema.getName()
              + " (known: " + knownFingerprints() + "); was the record written by a newer producer"
              + " whose schema is not registered here?",
          e);
    } catch (BadHeaderException e) {
      throw new SchemaException(
          "not an Avro single-object encoded " + schema.getName() + ": " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      throw new SchemaException(
          "corrupt " + schema.getName() + " record (" + bytes.length + " bytes): " + e, e);
    }
  }

  private static String fingerprintOf(byte[] bytes) {
    if (bytes.length < 10) {
      return "<short header>";
    }
    byte[] fp = new byte[8];
    // Single-object encoding stores the fingerprint little-endian; print it as the long value.
    for (int i = 0; i < 8; i++) {
      fp[i] = bytes[9 - i];
    }
    return "0x" + HexFormat.of().formatHex(fp);
  }

  private String knownFingerprints() {
    List<String> out = new ArrayList<>();
    for (Schema s : known) {
      out.add(String.format("0x%016x", SchemaNormalization.parsingFingerprint64(s)));
    }
    return String.join(", ", out);
  }

  /** Older schema versions shipped as resources, by record name. */
  static final class SchemaHistory {
    private SchemaHistory() {}

    static List<Schema> versionsOf(String recordName) {
      List<Schema> out = new ArrayList<>();
      for (int v = 1; v < 100; v++) {
        String path = "/io/locus/schemas/history/" + recordName + "-v" + v + ".avsc";
        try (InputStream in = AvroCodec.class.getResourceAsStream(path)) {
          if (in == null) {
            break;
          }
          out.add(new Schema.Parser().parse(in));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read schema history " + path, e);
        }
      }
      return out;
    }
  }
}
