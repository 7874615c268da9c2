package io.locus.agent;

import io.locus.schemas.Decision;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * Checks a {@code decisions} record's bytes before they are decoded, so that no record can make the
 * decoder allocate more than the record's own length (PROTOCOL-12, input bounds): at most
 * {@value #MAX_RECORD_BYTES} bytes, and, when it claims the current {@code Decision} schema, every
 * string, byte, array and map length it declares fits in the bytes that follow. An 18-byte record
 * declaring a 2,147,483,000-byte string is refused here instead of allocating 2 GB.
 *
 * <p>Records of another writer schema (an older Decision version, or garbage) are left to the
 * codec, which refuses unknown schemas and is itself bounded. Walks the encoding without building
 * anything; the Decision schema is not recursive.
 */
final class DecisionBytes {
  /** Kafka's default max.message.bytes; the scheduler writes nothing larger. */
  static final int MAX_RECORD_BYTES = 1 << 20;
  private static final int HEADER = 10;
  private static final long FINGERPRINT =
      SchemaNormalization.parsingFingerprint64(Decision.getClassSchema());

  private final byte[] buf;
  private int pos;

  private DecisionBytes(byte[] buf, int pos) {
    this.buf = buf;
    this.pos = pos;
  }

  /** Why {@code value} must not be decoded, or null when the codec may look at it. */
  static String problem(byte[] value) {
    if (value == null) {
      return "no value";
    }
    if (value.length > MAX_RECORD_BYTES) {
      return "record of " + value.length + " bytes, over the limit of " + MAX_RECORD_BYTES;
    }
    if (value.length < HEADER || (value[0] & 0xff) != 0xC3 || value[1] != 0x01
        || fingerprint(value) != FINGERPRINT) {
      return null;
    }
    DecisionBytes scan = new DecisionBytes(value, HEADER);
    try {
      scan.walk(Decision.getClassSchema());
      return null;
    } catch (Bad e) {
      return e.getMessage() + " (at byte " + scan.pos + " of " + value.length + ")";
    }
  }

  private static long fingerprint(byte[] v) {
    long f = 0;
    for (int i = 9; i >= 2; i--) {
      f = (f << 8) | (v[i] & 0xff);
    }
    return f;
  }

  private static final class Bad extends Exception {
    Bad(String message) {
      super(message, null, false, false);
    }
  }

  private int left() {
    return buf.length - pos;
  }

  private void skip(long n, String what) throws Bad {
    if (n < 0 || n > left()) {
      throw new Bad(what + " of " + n + " bytes, " + left() + " left in the record");
    }
    pos += (int) n;
  }

  private long varint() throws Bad {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= buf.length) {
        throw new Bad("truncated number");
      }
      int b = buf[pos++] & 0xff;
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return (v >>> 1) ^ -(v & 1);   // zig-zag
      }
    }
    throw new Bad("malformed number");
  }

  private void walk(Schema s) throws Bad {
    switch (s.getType()) {
      case NULL -> { }
      case BOOLEAN -> skip(1, "boolean");
      case INT, LONG -> varint();
      case FLOAT -> skip(4, "float");
      case DOUBLE -> skip(8, "double");
      case STRING -> skip(varint(), "string " + s.getName());
      case BYTES -> skip(varint(), "bytes");
      case FIXED -> skip(s.getFixedSize(), "fixed " + s.getName());
      case ENUM -> {
        long i = varint();
        if (i < 0 || i >= s.getEnumSymbols().size()) {
          throw new Bad("enum " + s.getName() + " index " + i);
        }
      }
      case RECORD -> {
        for (Schema.Field f : s.getFields()) {
          walk(f.schema());
        }
      }
      case UNION -> {
        long i = varint();
        if (i < 0 || i >= s.getTypes().size()) {
          throw new Bad("union branch " + i);
        }
        walk(s.getTypes().get((int) i));
      }
      case ARRAY, MAP -> {
        for (long n = varint(); n != 0; n = varint()) {
          if (n < 0) {
            n = -n;
            varint();   // the block's byte size
          }
          if (n < 0) {
            throw new Bad("malformed block count");
          }
          // Every item takes a byte at least (no item type of these schemas is empty).
          if (n > left()) {
            throw new Bad(s.getType().getName() + " of " + n + " items, " + left()
                + " bytes left in the record");
          }
          for (long i = 0; i < n; i++) {
            if (s.getType() == Schema.Type.MAP) {
              skip(varint(), "map key");
              walk(s.getValueType());
            } else {
              walk(s.getElementType());
            }
          }
        }
      }
      default -> throw new Bad("unexpected type " + s.getType());
    }
  }
}
