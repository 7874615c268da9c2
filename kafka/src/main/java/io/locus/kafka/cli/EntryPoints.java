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
    // picocli lets a help option win over an unmatched argument: `locus cancel --help` printed
    // the top-level help and exited 0, as if `cancel` were a command. An unmatched argument is
    // an error whatever else the line asks for.
    CommandLine.IExecutionStrategy strategy = cl.getExecutionStrategy();
    cl.setExecutionStrategy(parsed -> {
      for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
        if (!p.unmatched().isEmpty()) {
          throw new CommandLine.UnmatchedArgumentException(p.commandSpec().commandLine(),
              p.unmatched());
        }
      }
      return strategy.execute(parsed);
    });
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
   * A size option's value ({@code converter = EntryPoints.Bytes.class} on a {@code long}): bytes,
   * or a number and a unit as the agent's config takes them ({@code 10MB}, {@code 1.5GiB}).
   */
  public static final class Bytes implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
      try {
        return io.locus.schemas.units.ByteSize.parse(text.replace("_", "")).bytes();
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
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
    String unknown = unknownCommand(ex);
    if (unknown != null) {
      err.println(cmd.getCommandSpec().qualifiedName() + ": unknown command '" + unknown + "'");
      CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
      err.print(cmd.getHelp().commandListHeading("Commands:%n") + cmd.getHelp().commandList());
      err.flush();
      return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }
    err.println("locus: " + message(ex));
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * The word given where a command of {@code ex}'s command line was expected, or null: an
   * unmatched first argument that is not an option, on a command that has subcommands.
   */
  private static String unknownCommand(CommandLine.ParameterException ex) {
    if (!(ex instanceof CommandLine.UnmatchedArgumentException u)
        || ex.getCommandLine().getSubcommands().isEmpty() || u.getUnmatched().isEmpty()) {
      return null;
    }
    String first = u.getUnmatched().get(0);
    return first.startsWith("-") ? null : first;
  }

  /** Avro refuses to decode generated classes outside trusted packages: set before any loads. */
  public static void trustLocusAvro() {
    if (System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES") == null) {
      System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.locus");
    }
  }
}
