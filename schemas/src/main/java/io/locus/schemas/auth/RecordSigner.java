package io.locus.schemas.auth;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Signs and verifies records that carry a {@code signature} field (Decision with a pool's secret;
 * TaskEvent and NodeReport with a node's key).
 *
 * <p><b>The signature.</b> {@code signature = lowercase hex( HmacSHA256(key, canonical) )}, 64
 * characters, where {@code canonical} is the Avro binary encoding (plain binary: no single-object
 * marker, no fingerprint) of the record under its current schema with the {@code signature} field
 * set to null. Avro's binary encoding of a record without maps is a pure function of the schema and
 * the values, so both sides compute the same bytes.
 *
 * <p>Signer and verifier must use the same schema version: a record decoded from an older writer
 * schema gets the new fields' defaults, re-encodes differently and fails verification. Roll out a
 * schema change to both sides at once when signatures are required. Thread-safe.
 */
public final class RecordSigner {
  public static final String ALGORITHM = "HmacSHA256";
  public static final String FIELD = "signature";
  /** Length of a signature in hex characters. */
  public static final int LENGTH = 64;

  private final SecretKeySpec key;

  public RecordSigner(byte[] secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.length == 0) {
      throw new IllegalArgumentException("the secret is empty");
    }
    this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
  }

  public static RecordSigner of(String secret) {
    return new RecordSigner(secret.getBytes(StandardCharsets.UTF_8));
  }

  /** The bytes that are signed: the record with its signature cleared, Avro binary. */
  public static <T extends SpecificRecord> byte[] canonicalBytes(T record) {
    Schema schema = record.getSchema();
    Schema.Field field = schema.getField(FIELD);
    if (field == null) {
      throw new IllegalArgumentException(schema.getName() + " has no " + FIELD + " field");
    }
    @SuppressWarnings("unchecked")
    T unsigned = (T) SpecificData.get().deepCopy(schema, record);
    unsigned.put(field.pos(), null);
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      new SpecificDatumWriter<T>(schema).write(unsigned, enc);
      enc.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode " + schema.getName(), e);
    }
    return out.toByteArray();
  }

  /** The signature of {@code record} (its own signature field is ignored). */
  public String signature(SpecificRecord record) {
    return HexFormat.of().formatHex(mac(canonicalBytes(record)));
  }

  /** A copy of {@code record} carrying its signature. */
  public <T extends SpecificRecord> T sign(T record) {
    @SuppressWarnings("unchecked")
    T copy = (T) SpecificData.get().deepCopy(record.getSchema(), record);
    copy.put(record.getSchema().getField(FIELD).pos(), signature(record));
    return copy;
  }

  /** True when the record carries the right signature (compared in constant time). */
  public boolean verify(SpecificRecord record) {
    Schema.Field field = record.getSchema().getField(FIELD);
    Object given = field == null ? null : record.get(field.pos());
    if (given == null || given.toString().length() != LENGTH) {
      return false;
    }
    byte[] actual;
    try {
      actual = HexFormat.of().parseHex(given.toString().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(mac(canonicalBytes(record)), actual);
  }

  /** HMAC-SHA256 of {@code data} with this key; for other messages (e.g. peer requests). */
  public byte[] mac(byte[] data) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(data);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(ALGORITHM + " is not available", e);
    }
  }

  @Override
  public String toString() {
    // Never the key.
    return "RecordSigner[" + ALGORITHM + "]";
  }
}
