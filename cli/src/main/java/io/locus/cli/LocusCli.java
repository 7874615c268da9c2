package io.locus.cli;

import io.locus.jobs.SchedulerJobMain;
import io.locus.jobs.run.RunCommand;
import io.locus.kafka.cli.EntryPoints;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code locus} command line. */
@Command(
    name = "locus",
    mixinStandardHelpOptions = true,
    versionProvider = LocusCli.Version.class,
    description = "Locus: a data-locality-aware job orchestrator on Apache Flink and Kafka.",
    subcommands = {DemoCommand.class, BenchCommand.class, io.locus.cli.chaos.ChaosCommand.class, RunCommand.class, SavepointCommand.class, ControlCommand.class, QueuesCommand.class, io.locus.cli.job.JobCli.class, ReplayCommand.class, TraceCommand.class, StorageCommand.class,
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
    EntryPoints.trustLocusAvro();
    // `locus agent real` starts task processes: the launch mechanism is read once, so set it
    // before any process starts (as the agent's own main does).
    io.locus.agent.real.ProcessLaunch.apply();
    int code = commandLine().execute(args);
    // `flink run -c io.locus.cli.LocusCli locus.jar run ...` as with the job jar's entry class
    SchedulerJobMain.exitUnlessFlinkProgram(code, args);
  }

  /** The configured command line, also used by tests to check argument handling. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new LocusCli());
    // `locus agent real --config agent.yaml` / `locus agent sim ...`: the node agent, same jar
    cl.addSubcommand("agent", new io.locus.agent.AgentCli());
    // After every subcommand is added: picocli applies converters and handlers to the
    // subcommands present. Durations as 30s, 5m, 1h or ISO-8601; a malformed trace (bad input)
    // is one line naming the file and the place.
    return EntryPoints.configure(cl, io.locus.workloads.TraceFormatException.class);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = LocusCli.class.getPackage().getImplementationVersion();
      return new String[] {"locus " + (v == null ? "dev" : v)};
    }
  }
}
