package io.locus.schemas.codec;

/**
 * A record could not be decoded: too large, unknown schema fingerprint, bad header, or corrupt
 * body. {@link #code()} is the dead-letter code ({@link DeadLetterCodes}) for it.
 */
public class SchemaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;

  public SchemaException(String code, String message, Throwable cause) {
    super(message, cause);
    this.code = code == null ? DeadLetterCodes.CORRUPT : code;
  }

  public SchemaException(String code, String message) {
    this(code, message, null);
  }

  /** A record that is not a usable record of the expected type ({@link DeadLetterCodes#CORRUPT}). */
  public SchemaException(String message, Throwable cause) {
    this(DeadLetterCodes.CORRUPT, message, cause);
  }

  /** The dead-letter code: {@link DeadLetterCodes#TOO_LARGE} or {@link DeadLetterCodes#CORRUPT}. */
  public String code() {
    return code;
  }
}
