package io.locus.connectors.functions;

import io.locus.schemas.codec.DeadLetterCodes;
import java.util.Objects;

/**
 * A rule an input record breaks: the dead-letter code ({@link DeadLetterCodes#TOO_LARGE} for a
 * length or count limit, {@link DeadLetterCodes#INVALID} for the rest) and a reason naming the
 * field, its value and the rule.
 */
public record Violation(String code, String reason) {
  public Violation {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(reason, "reason");
  }

  static Violation invalid(String reason) {
    return new Violation(DeadLetterCodes.INVALID, reason);
  }

  static Violation tooLarge(String reason) {
    return new Violation(DeadLetterCodes.TOO_LARGE, reason);
  }
}
