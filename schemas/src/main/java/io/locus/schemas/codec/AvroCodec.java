package io.locus.schemas.codec;

import io.locus.schemas.limits.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro single-object encoding for one record type: a 2-byte marker, the writer schema's 64-bit
 * CRC fingerprint, then the binary body. The decoder knows the current schema and every older
 * version shipped under {@code io/locus/schemas/history/}, so records written by older producers
 * are resolved to the current reader schema. Thread-safe.
 *
 * <p>Decoding is bounded, because every record may be hostile: a value longer than
 * {@link #MAX_RECORD_BYTES} is refused before it is decoded ({@link DeadLetterCodes#TOO_LARGE}),
 * and the body is read through a {@link BoundedDecoder}, which refuses any string, bytes, array
 * or map that declares more than the record still holds, before allocating it
 * ({@link DeadLetterCodes#CORRUPT}). So decoding one record never allocates much more than the
 * record's own length, whatever its length prefixes say.
 *
 * <p>Decoding is strict: the record must end exactly where the value ends. Bytes left after it
 * are refused ({@link DeadLetterCodes#CORRUPT}, "N trailing bytes after the record").
 */
public final class AvroCodec<T extends SpecificRecord> {
  /** Largest record value decoded: {@link Limits#MAX_RECORD_BYTES} (1 MiB). */
  public static final int MAX_RECORD_BYTES = Limits.MAX_RECORD_BYTES;

  private static final int HEADER_BYTES = 10;
  private static final byte MARKER_0 = (byte) 0xC3;
  private static final byte MARKER_1 = (byte) 0x01;

  private final Class<T> type;
  private final Schema schema;
  private final BinaryMessageEncoder<T> encoder;
  private final List<Schema> known = new CopyOnWriteArrayList<>();
  /** A reader per writer schema, by fingerprint; a DatumReader may be shared between threads. */
  private final Map<Long, SpecificDatumReader<T>> readers = new ConcurrentHashMap<>();

  public AvroCodec(Class<T> type) {
    this.type = type;
    this.schema = SpecificData.get().getSchema(type);
    this.encoder = new BinaryMessageEncoder<>(SpecificData.get(), schema);
    addWriterSchema(schema);
    for (Schema old : SchemaHistory.versionsOf(schema.getName())) {
      addWriterSchema(old);
    }
  }

  /** Lets the decoder resolve records written with {@code writer} (an older or newer version). */
  public void addWriterSchema(Schema writer) {
    long fp = SchemaNormalization.parsingFingerprint64(writer);
    if (readers.putIfAbsent(fp, new SpecificDatumReader<>(writer, schema, SpecificData.get()))
        == null) {
      known.add(writer);
    }
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

  /**
   * Decodes one record; any failure is a {@link SchemaException} with a readable reason and a
   * dead-letter code ({@link SchemaException#code()}).
   */
  public T decode(byte[] bytes) {
    String name = schema.getName();
    if (bytes == null) {
      throw new SchemaException(DeadLetterCodes.CORRUPT,
          "empty value: expected a " + name + " record");
    }
    if (bytes.length > MAX_RECORD_BYTES) {
      throw new SchemaException(DeadLetterCodes.TOO_LARGE, name + " record of " + bytes.length
          + " bytes is larger than the limit of " + MAX_RECORD_BYTES + " bytes; not decoded");
    }
    if (bytes.length < HEADER_BYTES || bytes[0] != MARKER_0 || bytes[1] != MARKER_1) {
      throw new SchemaException(DeadLetterCodes.CORRUPT, "not an Avro single-object encoded "
          + name + ": " + headerProblem(bytes));
    }
    SpecificDatumReader<T> reader = readers.get(fingerprintValue(bytes));
    if (reader == null) {
      throw new SchemaException(DeadLetterCodes.CORRUPT,
          "unknown schema fingerprint " + fingerprintOf(bytes) + " for " + name
              + " (known: " + knownFingerprints() + "); was the record written by a newer producer"
              + " whose schema is not registered here?");
    }
    try {
      BoundedDecoder in = new BoundedDecoder(bytes, HEADER_BYTES);
      T record = reader.read(null, in);
      // Avro's own message decoder ignores bytes after the record; here they are refused: a
      // writer of this schema leaves none, so they are either damage or data smuggled past
      // every check (anyone reading the topic with another decoder could see them).
      int left = in.remainingBytes();
      if (left > 0) {
        throw new SchemaException(DeadLetterCodes.CORRUPT, "corrupt " + name + " record ("
            + bytes.length + " bytes): " + left + " trailing bytes after the record, which"
            + " ends after " + (bytes.length - left) + " bytes");
      }
      return record;
    } catch (SchemaException e) {
      throw e;
    } catch (BoundedDecoder.LengthException e) {
      throw new SchemaException(DeadLetterCodes.CORRUPT,
          "corrupt " + name + " record (" + bytes.length + " bytes): " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      throw new SchemaException(DeadLetterCodes.CORRUPT,
          "corrupt " + name + " record (" + bytes.length + " bytes): " + e, e);
    }
  }

  private static String headerProblem(byte[] bytes) {
    if (bytes.length >= 2 && (bytes[0] != MARKER_0 || bytes[1] != MARKER_1)) {
      return String.format("starts with 0x%02x 0x%02x, not the marker 0xc3 0x01",
          bytes[0] & 0xff, bytes[1] & 0xff);
    }
    return "only " + bytes.length + " bytes, shorter than the " + HEADER_BYTES + "-byte header";
  }

  /** The fingerprint in bytes 2..9, little-endian. */
  private static long fingerprintValue(byte[] bytes) {
    long fp = 0;
    for (int i = 9; i >= 2; i--) {
      fp = (fp << 8) | (bytes[i] & 0xffL);
    }
    return fp;
  }

  private static String fingerprintOf(byte[] bytes) {
    return String.format("0x%016x", fingerprintValue(bytes));
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
