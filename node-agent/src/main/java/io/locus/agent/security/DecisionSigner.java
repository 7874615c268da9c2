package io.locus.agent.security;

import io.locus.schemas.Decision;
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
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Signs and verifies decisions with a pool's shared secret.
 *
 * <p><b>The signature.</b> {@code signature = lowercase hex( HmacSHA256(secret, canonical) )}, 64
 * characters, where {@code canonical} is the Avro binary encoding (plain binary: no single-object
 * marker, no fingerprint) of the decision under the current {@code Decision} schema, with its
 * {@code signature} field set to null. Avro's binary encoding of a record without maps is a pure
 * function of the schema and the values, so both sides compute the same bytes. The secret is the raw
 * bytes of the secret file, trailing whitespace and newlines removed.
 *
 * <p>Signer and verifier must use the same {@code Decision} schema version: a decision decoded
 * from an older writer schema gets the new fields' defaults, re-encodes differently and fails
 * verification. Roll out a schema change to agents first only if they run unsigned, or to both at once.
 *
 * <p>The scheduler side can sign with {@link #sign(Decision)}; this class needs only the schemas
 * module and the JDK, so it can move there. Thread-safe.
 */
public final class DecisionSigner {
  public static final String ALGORITHM = "HmacSHA256";
  private static final SpecificDatumWriter<Decision> WRITER =
      new SpecificDatumWriter<>(Decision.getClassSchema());

  private final SecretKeySpec key;

  public DecisionSigner(byte[] secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.length == 0) {
      throw new IllegalArgumentException("the decision secret is empty");
    }
    this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
  }

  public static DecisionSigner of(String secret) {
    return new DecisionSigner(secret.getBytes(StandardCharsets.UTF_8));
  }

  /** The bytes that are signed: the decision with its signature cleared, Avro binary. */
  public static byte[] canonicalBytes(Decision decision) {
    Decision unsigned = Decision.newBuilder(decision).setSignature(null).build();
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      WRITER.write(unsigned, enc);
      enc.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode decision " + decision.getDecisionId(), e);
    }
    return out.toByteArray();
  }

  /** The signature of {@code decision} (its own signature field is ignored). */
  public String signature(Decision decision) {
    return HexFormat.of().formatHex(mac(canonicalBytes(decision)));
  }

  /** A copy of {@code decision} carrying its signature. */
  public Decision sign(Decision decision) {
    return Decision.newBuilder(decision).setSignature(signature(decision)).build();
  }

  /** True when the decision carries the right signature (compared in constant time). */
  public boolean verify(Decision decision) {
    String given = decision.getSignature();
    if (given == null || given.length() != 64) {
      return false;
    }
    byte[] expected = mac(canonicalBytes(decision));
    byte[] actual;
    try {
      actual = HexFormat.of().parseHex(given.toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(expected, actual);
  }

  /** HMAC-SHA256 of {@code data} with this secret; for other messages (e.g. peer requests). */
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
    // Never the secret.
    return "DecisionSigner[" + ALGORITHM + "]";
  }
}
