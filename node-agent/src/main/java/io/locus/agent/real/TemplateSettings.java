package io.locus.agent.real;

import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * [templates.NAME] One allow-listed command as the file writes it; {@link #toTemplate} names it.
 *
 * @param command [command] the program and its arguments, as a list (required)
 * @param timeout [timeout] its time limit; null: tasks.timeout
 * @param env [env] extra environment variables
 * @param maxArgs [max-args] the most arguments a decision may pass (default 16)
 * @param argPattern [arg-pattern] a regex every argument must match entirely; null: any
 */
public record TemplateSettings(List<String> command, Duration timeout, Map<String, String> env,
    Integer maxArgs, String argPattern) {

  public TemplateSettings {
    command = Setting.values("command", command);
    if (command.isEmpty()) {
      throw new InvalidSetting("command", "command is required: the program and its arguments,"
          + " as a list");
    }
    timeout = Setting.positive("timeout", timeout);
    env = Setting.values("env", env);
    maxArgs = Setting.atLeast("max-args", Setting.orDefault(maxArgs, TaskTemplate.DEFAULT_MAX_ARGS),
        0);
  }

  /** The template these settings describe, under {@code name}. */
  public TaskTemplate toTemplate(String name) {
    Pattern pattern;
    try {
      pattern = argPattern == null ? null : Pattern.compile(argPattern);
    } catch (PatternSyntaxException e) {
      throw new InvalidSetting("arg-pattern", e.getDescription() + " in '" + argPattern + "'");
    }
    try {
      return new TaskTemplate(name, command, timeout, env, maxArgs, pattern);
    } catch (IllegalArgumentException e) {
      throw new InvalidSetting("command", e.getMessage());
    }
  }
}
