package io.locus.kafka.cli;

import io.locus.kafka.KafkaReachability;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine;

/**
 * What every Locus entry point (the full {@code locus} CLI, the scheduler job's
 * {@code SchedulerJobMain}, the agent's own main) sets on its picocli command line, once: durations
 * as {@code 30s}, {@code 5m} or ISO-8601 ({@link DurationText}), and errors as one line that says
 * what is wrong instead of a stack trace or a wall of usage text. It lives here, in the lowest
 * module all three depend on, so the agent does not need the job and the job not the CLI.
 */
public final class EntryPoints {
  private EntryPoints() {}

  /**
   * Registers the converters and handlers on {@code cl}. An exception of one of {@code badInput}
   * (e.g. a malformed trace) is reported by its message alone with the invalid-input exit code.
   */
  @SafeVarargs
  public static CommandLine configure(CommandLine cl, Class<? extends Exception>... badInput) {
    List<Class<? extends Exception>> inputErrors = List.of(badInput);
    cl.registerConverter(Duration.class, EntryPoints::duration);
    cl.setParameterExceptionHandler(EntryPoints::badArgument);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        return badArgument(new CommandLine.ParameterException(cmd, ex.getMessage(), ex),
            parsed.originalArgs().toArray(new String[0]));
      }
      if (inputErrors.stream().anyMatch(c -> c.isInstance(ex))) {
        // Bad input whose message names the file and the place: a stack trace adds nothing.
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
        cmd.getErr().flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
      }
      if (ex instanceof KafkaReachability.Unreachable) {
        // Says where it looked and what to check: a stack trace would add nothing.
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
        cmd.getErr().flush();
        return 1;
      }
      cmd.getErr().println("locus: " + ex.getMessage());
      ex.printStackTrace(cmd.getErr());
      return 1;
    });
    return cl;
  }

  /** A duration option's value; a bad one says what a duration looks like. */
  public static Duration duration(String text) {
    try {
      return DurationText.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /**
   * picocli 4's message for a map option's value without '=' says "option" twice ("Value for
   * option option '--pool-policy' ..."): said once here.
   */
  public static String message(CommandLine.ParameterException ex) {
    String m = ex.getMessage() == null ? "" : ex.getMessage();
    return m.replace("option option '", "option '");
  }

  /** What is wrong and how to fix it, without a wall of usage text. */
  private static int badArgument(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("locus: " + message(ex));
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** Avro refuses to decode generated classes outside trusted packages: set before any loads. */
  public static void trustLocusAvro() {
    if (System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES") == null) {
      System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.locus");
    }
  }
}
