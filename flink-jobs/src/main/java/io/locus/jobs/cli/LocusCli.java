package io.locus.jobs.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code locus} command line. */
@Command(
    name = "locus",
    mixinStandardHelpOptions = true,
    versionProvider = LocusCli.Version.class,
    description = "Locus: a data-locality-aware job orchestrator on Apache Flink and Kafka.",
    subcommands = {DemoCommand.class, BenchCommand.class, RunCommand.class, SavepointCommand.class, ControlCommand.class, ReplayCommand.class, TraceCommand.class,
        io.locus.sim.cli.SimulateCommand.class, io.locus.sim.cli.ExperimentCommand.class,
        CommandLine.HelpCommand.class})
public final class LocusCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: try 'locus demo' or 'locus --help'");
  }

  public static void main(String[] args) {
    // Avro refuses to decode generated classes outside trusted packages; set it before any Avro
    // class loads (also covers the embedded MiniCluster, which runs in this JVM).
    if (System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES") == null) {
      System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.locus");
    }
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, also used by tests to check argument handling. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new LocusCli());
    // `locus agent real --config agent.yaml` / `locus agent sim ...`: the node agent, same jar
    cl.addSubcommand("agent", new io.locus.agent.AgentCli());
    cl.setParameterExceptionHandler(LocusCli::badArgument);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        return badArgument(new CommandLine.ParameterException(cmd, ex.getMessage(), ex), parsed.originalArgs().toArray(new String[0]));
      }
      cmd.getErr().println("locus: " + ex.getMessage());
      ex.printStackTrace(cmd.getErr());
      return 1;
    });
    return cl;
  }

  /** What is wrong and how to fix it, without a wall of usage text. */
  private static int badArgument(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("locus: " + ex.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = LocusCli.class.getPackage().getImplementationVersion();
      return new String[] {"locus " + (v == null ? "dev" : v)};
    }
  }
}
