package io.locus.jobs;

import io.locus.jobs.run.RunCommand;
import io.locus.kafka.cli.EntryPoints;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The scheduler job's entry class, what a Flink cluster runs from the job jar
 * ({@code scheduler-job/target/locus-scheduler-job.jar}): {@code flink run -c
 * io.locus.jobs.SchedulerJobMain locus-scheduler-job.jar run --bootstrap-servers ...}, or a
 * FlinkDeployment's {@code entryClass} in application mode. Its one command is {@code run}, the
 * same class as the full CLI's {@code locus run}, so the arguments are the same either way.
 */
@Command(name = "locus", mixinStandardHelpOptions = true,
    description = "The Locus scheduler job (the job jar's entry point).",
    subcommands = {RunCommand.class, CommandLine.HelpCommand.class})
public final class SchedulerJobMain implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: the job jar runs 'run --bootstrap-servers HOST:PORT ...'");
  }

  /** The configured command line (also for tests). */
  public static CommandLine commandLine() {
    return EntryPoints.configure(new CommandLine(new SchedulerJobMain()));
  }

  public static void main(String[] args) {
    EntryPoints.trustLocusAvro();
    int code = commandLine().execute(args);
    exitUnlessFlinkProgram(code, args);
  }

  /**
   * Ends the JVM with {@code code}, unless this ran inside a Flink program ({@code flink run},
   * application mode, a jar run by the REST API): Flink runs main() in its own JVM (the client, or
   * the JobManager) and System.exit would end it, so a failure is reported by throwing.
   */
  public static void exitUnlessFlinkProgram(int code, String[] args) {
    if (RunCommand.ranAsFlinkProgram) {
      if (code != 0) {
        throw new IllegalStateException("locus " + (args.length > 0 ? args[0] : "")
            + " failed with exit code " + code + " (see the messages above)");
      }
      return;
    }
    System.exit(code);
  }
}
