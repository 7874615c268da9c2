package io.locus.agent.config;

/**
 * A config file is wrong. The message names the key (dotted, as the documentation writes it:
 * {@code cache.quota}) and, when known, the line: {@code agent.yaml:4: cache.quota: ...}.
 * An IllegalArgumentException, so callers that refuse bad arguments refuse it too.
 */
public final class ConfigException extends IllegalArgumentException {
  private final String source;
  private final String key;
  private final int line;
  private final String problem;

  /**
   * @param key the full dotted key, or null when the error is about the file as a whole
   * @param line 1-based line, or 0 when unknown (e.g. a required key that is absent)
   * @param problem what is wrong; when it starts with the key, or names it as [key], the key is
   *     not repeated before it
   */
  public ConfigException(String key, int line, String problem) {
    this(null, key, line, problem, null);
  }

  private ConfigException(String source, String key, int line, String problem, Throwable cause) {
    super(format(source, key, line, problem), cause);
    this.source = source;
    this.key = key;
    this.line = line;
    this.problem = problem;
  }

  ConfigException withCause(Throwable cause) {
    return new ConfigException(source, key, line, problem, cause);
  }

  /** The same error, said of {@code source} (a file name). */
  public ConfigException in(String source) {
    return new ConfigException(source, key, line, problem, getCause());
  }

  public String key() {
    return key;
  }

  /** 1-based line; 0 when unknown. */
  public int line() {
    return line;
  }

  public String problem() {
    return problem;
  }

  private static String format(String source, String key, int line, String problem) {
    StringBuilder b = new StringBuilder();
    if (source != null) {
      b.append(source).append(line > 0 ? ":" + line : "").append(": ");
    } else if (line > 0) {
      b.append("line ").append(line).append(": ");
    }
    if (key != null && !problem.startsWith(key) && !problem.contains("[" + key + "]")) {
      b.append(key).append(": ");
    }
    return b.append(problem).toString();
  }
}
