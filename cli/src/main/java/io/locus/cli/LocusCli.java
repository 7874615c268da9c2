package io.locus.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code locus} command line. */
@Command(
    name = "locus",
    mixinStandardHelpOptions = true,
    versionProvider = LocusCli.Version.class,
    description = "Locus: a data-locality-aware job orchestrator on Apache Flink and Kafka.",
    subcommands = {DemoCommand.class, BenchCommand.class, RunCommand.class, SavepointCommand.class, ControlCommand.class, ReplayCommand.class, TraceCommand.class, StorageCommand.class,
        io.locus.cli.sim.SimulateCommand.class, io.locus.cli.sim.ExperimentCommand.class,
        BrokerCommand.class, TopicsCommand.class, StatusCommand.class, DashboardCommand.class,
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
    // `locus agent real` starts task processes: the launch mechanism is read once, so set it
    // before any process starts (as the agent's own main does).
    io.locus.agent.real.ProcessLaunch.apply();
    int code = commandLine().execute(args);
    if (RunCommand.ranAsFlinkProgram) {
      // flink run / application mode: Flink runs this main() in its own JVM (the client, or the
      // JobManager); System.exit would end it. A failure is reported by throwing.
      if (code != 0) {
        throw new IllegalStateException("locus " + (args.length > 0 ? args[0] : "")
            + " failed with exit code " + code + " (see the messages above)");
      }
      return;
    }
    System.exit(code);
  }

  /** The configured command line, also used by tests to check argument handling. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new LocusCli());
    // `locus agent real --config agent.yaml` / `locus agent sim ...`: the node agent, same jar
    cl.addSubcommand("agent", new io.locus.agent.AgentCli());
    // Durations as 30s, 5m, 1h or ISO-8601 PT30S, with one message for a bad one (picocli's
    // own names the Java class and the parser's exception).
    cl.registerConverter(java.time.Duration.class, LocusCli::duration);
    cl.setParameterExceptionHandler(LocusCli::badArgument);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        return badArgument(new CommandLine.ParameterException(cmd, ex.getMessage(), ex), parsed.originalArgs().toArray(new String[0]));
      }
      if (ex instanceof io.locus.workloads.TraceFormatException) {
        // A malformed trace: the reader's message names the file and the place; bad input, so 2.
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
        cmd.getErr().flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
      }
      if (ex instanceof io.locus.kafka.KafkaReachability.Unreachable) {
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

  static java.time.Duration duration(String text) {
    try {
      return io.locus.agent.config.DurationText.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /**
   * picocli 4's message for a map option's value without '=' says "option" twice ("Value for
   * option option '--pool-policy' ..."): said once here.
   */
  static String message(CommandLine.ParameterException ex) {
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

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = LocusCli.class.getPackage().getImplementationVersion();
      return new String[] {"locus " + (v == null ? "dev" : v)};
    }
  }
}
