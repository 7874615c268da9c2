package io.locus.agent.config;

/**
 * A value a settings record refuses, thrown from its constructor with the key relative to the
 * mapping being read ({@code keep} in {@code work}); the reader turns it into a
 * {@link ConfigException} with the full key and its line. Outside a file (settings built in code)
 * it is an ordinary IllegalArgumentException whose message names the key.
 */
public final class InvalidSetting extends IllegalArgumentException {
  private final String key;
  private final String problem;

  /**
   * @param key relative dotted key ({@code arg-pattern}, or {@code x.arg-pattern} one level up)
   * @param problem what is wrong; may start with the key ("command is required")
   */
  public InvalidSetting(String key, String problem) {
    super(problem.startsWith(key) ? problem : key + ": " + problem);
    this.key = key;
    this.problem = problem;
  }

  public String key() {
    return key;
  }

  public String problem() {
    return problem;
  }

  /** The same problem seen from the mapping {@code prefix} up: its key becomes prefix.key. */
  public InvalidSetting under(String prefix) {
    String k = prefix + "." + key;
    return new InvalidSetting(k, problem.startsWith(key) ? k + problem.substring(key.length())
        : problem);
  }
}
