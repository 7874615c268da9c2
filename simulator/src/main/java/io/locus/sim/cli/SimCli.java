package io.locus.sim.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A stand-alone entry point with the simulator's two commands ({@code simulate}, {@code
 * experiment}), for running the simulator without the Flink job's jar. The same command classes are
 * meant to be registered as subcommands of {@code locus}.
 */
@Command(name = "locus-sim", mixinStandardHelpOptions = true,
    description = "Locus discrete-event simulator of data diffusion.",
    subcommands = {SimulateCommand.class, ExperimentCommand.class, CommandLine.HelpCommand.class})
public final class SimCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "missing command: try 'simulate' or 'experiment'");
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line: argument mistakes print what is wrong and exit with 2. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new SimCli());
    cl.setParameterExceptionHandler(SimCli::badArgument);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        return badArgument(new CommandLine.ParameterException(cmd, ex.getMessage(), ex),
            parsed.originalArgs().toArray(new String[0]));
      }
      cmd.getErr().println("locus-sim: " + ex);
      ex.printStackTrace(cmd.getErr());
      return 1;
    });
    return cl;
  }

  private static int badArgument(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("locus-sim: " + ex.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
    err.flush();
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }
}
