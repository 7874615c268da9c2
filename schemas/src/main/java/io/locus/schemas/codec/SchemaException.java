package io.locus.schemas.codec;

/** A record could not be decoded: unknown schema fingerprint, bad header, or corrupt body. */
public class SchemaException extends RuntimeException {
  public SchemaException(String message, Throwable cause) {
    super(message, cause);
  }

  public SchemaException(String message) {
    super(message);
  }
}
