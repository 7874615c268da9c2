package io.locus.schemas.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * An Avro binary decoder over one record's bytes that checks every declared length and count
 * against the bytes that remain <em>before</em> allocating anything for it.
 *
 * <p>Why: Avro's own decoder trusts the length prefix, so an 18-byte record declaring a 2 GB
 * string makes it allocate 2 GB and the JVM dies with an OutOfMemoryError that no
 * {@code catch (RuntimeException)} sees. Here a string or bytes value can never be longer than
 * the bytes left, and an array or map can never declare more items than there are bytes left
 * (every item of a Locus schema takes at least one byte), so decoding one record allocates at
 * most a small multiple of the record's own length.
 *
 * <p>Reads go through a {@link BinaryDecoder} without read-ahead ({@code directBinaryDecoder}) so
 * the stream's {@code available()} is exactly what remains. Not thread-safe: one per decode.
 */
final class BoundedDecoder extends Decoder {
  private final ByteArrayInputStream source;
  private final BinaryDecoder in;

  BoundedDecoder(byte[] bytes, int offset) {
    this.source = new ByteArrayInputStream(bytes, offset, bytes.length - offset);
    this.in = DecoderFactory.get().directBinaryDecoder(source, null);
  }

  /** A declared length or count that the record cannot hold; decoding stops before allocating. */
  static final class LengthException extends IOException {
    private static final long serialVersionUID = 1L;

    LengthException(String message) {
      super(message);
    }
  }

  @Override
  public int remainingBytes() {
    return source.available();
  }

  private int length(String what) throws IOException {
    long n = in.readLong();
    int left = remainingBytes();
    if (n < 0) {
      throw new LengthException("declares a " + what + " of negative length " + n);
    }
    if (n > left) {
      throw new LengthException(
          "declares a " + what + " of " + n + " bytes but only " + left + " remain");
    }
    return (int) n;
  }

  private long count(long n, String what) throws LengthException {
    int left = remainingBytes();
    if (n < 0) {
      throw new LengthException("declares a " + what + " block of negative count " + n);
    }
    if (n > left) {
      throw new LengthException("declares " + ("array".equals(what) ? "an " : "a ") + what
          + " of " + n + " items but only " + left + " bytes remain");
    }
    return n;
  }

  private byte[] bytes(String what) throws IOException {
    byte[] b = new byte[length(what)];
    in.readFixed(b, 0, b.length);
    return b;
  }

  @Override
  public Utf8 readString(Utf8 old) throws IOException {
    return new Utf8(bytes("string"));
  }

  @Override
  public String readString() throws IOException {
    return new String(bytes("string"), StandardCharsets.UTF_8);
  }

  @Override
  public void skipString() throws IOException {
    in.skipFixed(length("string"));
  }

  @Override
  public ByteBuffer readBytes(ByteBuffer old) throws IOException {
    return ByteBuffer.wrap(bytes("bytes value"));
  }

  @Override
  public void skipBytes() throws IOException {
    in.skipFixed(length("bytes value"));
  }

  @Override
  public void readFixed(byte[] bytes, int start, int length) throws IOException {
    if (length > remainingBytes()) {
      throw new LengthException("declares a fixed of " + length + " bytes but only "
          + remainingBytes() + " remain");
    }
    in.readFixed(bytes, start, length);
  }

  @Override
  public void skipFixed(int length) throws IOException {
    in.skipFixed(length);
  }

  @Override
  public long readArrayStart() throws IOException {
    return count(in.readArrayStart(), "array");
  }

  @Override
  public long arrayNext() throws IOException {
    return count(in.arrayNext(), "array");
  }

  @Override
  public long skipArray() throws IOException {
    return count(in.skipArray(), "array");
  }

  @Override
  public long readMapStart() throws IOException {
    return count(in.readMapStart(), "map");
  }

  @Override
  public long mapNext() throws IOException {
    return count(in.mapNext(), "map");
  }

  @Override
  public long skipMap() throws IOException {
    return count(in.skipMap(), "map");
  }

  @Override
  public void readNull() throws IOException {
    in.readNull();
  }

  @Override
  public boolean readBoolean() throws IOException {
    return in.readBoolean();
  }

  @Override
  public int readInt() throws IOException {
    return in.readInt();
  }

  @Override
  public long readLong() throws IOException {
    return in.readLong();
  }

  @Override
  public float readFloat() throws IOException {
    return in.readFloat();
  }

  @Override
  public double readDouble() throws IOException {
    return in.readDouble();
  }

  @Override
  public int readEnum() throws IOException {
    return in.readEnum();
  }

  @Override
  public int readIndex() throws IOException {
    return in.readIndex();
  }
}
