package io.locus.cli.job;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * {@code locus job}: what a person who submits work reaches for: submit one job or a file of
 * jobs, a job's status, the jobs of a pool by state, cancel. Every subcommand talks to Kafka only
 * (job-arrivals and job-commands out; job-status and dead-letters in), as the agents do.
 */
@Command(name = "job", mixinStandardHelpOptions = true,
    description = "Submit jobs, show a job's status, list a pool's jobs by state, cancel a job.",
    subcommands = {JobSubmitCommand.class, JobStatusCommand.class, JobListCommand.class,
        JobCancelCommand.class},
    footer = {"", "Exit status (every subcommand):",
        "  0 done",
        "  1 refused or failed: a job dead-lettered, FAILED or CANCELLED; a cancel",
        "    refused; a record Kafka did not take; Kafka unreachable",
        "  2 bad arguments or a malformed file",
        "  3 no answer within --timeout; job status: no such job"})
public final class JobCli implements Runnable {
  // One table for the group (the footer), so a script tests the same codes whatever it runs.
  static final int OK = 0;
  static final int FAILED = 1;
  static final int BAD_INPUT = 2;
  static final int NO_ANSWER = 3;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: submit, status, list or cancel (locus job --help)");
  }
}
