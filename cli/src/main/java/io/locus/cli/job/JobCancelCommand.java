package io.locus.cli.job;

import io.locus.cli.replay.AckedPublisher;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.Topics;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.limits.Limits;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code locus job cancel}: sends a CANCEL {@link JobCommand} with a fresh requestId to
 * job-commands (key = pool) and waits for the scheduler's answer: the job's CANCELLED status
 * carrying that requestId (exit 0), or the dead letter of this very record (unknown-job,
 * job-finished, ...; exit 1), matched by the partition and offset Kafka gave it. No answer within
 * {@code --timeout}: exit 3 (the command was sent and may still be applied).
 */
@Command(name = "cancel", mixinStandardHelpOptions = true,
    description = "Cancel a job: a queued job leaves the queue, a placed or running one is stopped"
        + " on its node; waits for the scheduler's answer.",
    footer = {"", "Example:",
        "  locus job cancel --bootstrap-servers kafka:9092 batch/hand-1 --reason stale"},
    exitCodeOnInvalidInput = 2)
public final class JobCancelCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  // With ACLs: WRITE on job-commands, READ on job-status and dead-letters.
  @Mixin KafkaClientOptions kafka;

  @Parameters(index = "0", paramLabel = "POOL/JOB",
      description = "The job: POOL/JOB, or JOB with --pool.")
  String job;

  @Option(names = "--pool", paramLabel = "POOL", description = "The job's pool.")
  String pool;

  @Option(names = "--reason", defaultValue = "", paramLabel = "TEXT",
      description = "Why; shown in the job's status.")
  String reason;

  @Option(names = "--timeout", defaultValue = "30s", paramLabel = "DURATION",
      description = "How long to wait for the scheduler's answer (with an exactly-once sink it"
          + " comes at its next checkpoint). Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Override
  public Integer call() throws Exception {
    JobKafka.requirePositive("--timeout", timeout);
    JobCommand command = command(UUID.randomUUID().toString(), System.currentTimeMillis());
    JobRef ref = new JobRef(command.getPool(), command.getJobId());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String name = spec.qualifiedName();
    Properties client = JobKafka.client(kafka);
    List<String> missing = JobKafka.check(client, timeout,
        List.of(Topics.JOB_COMMANDS, Topics.JOB_STATUS, Topics.DEAD_LETTERS));
    if (!missing.isEmpty()) {
      return JobStatusCommand.problem(err, name, JobKafka.missingMessage(missing, client),
          JobCli.FAILED);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    String requestId = command.getRequestId();
    try (Answers answers = Answers.open(JobKafka.reader(kafka),
        s -> requestId.equals(s.getRequestId()), Set.of(Topics.JOB_COMMANDS.name()), timeout)) {
      AckedPublisher.Placed placed;
      try (AckedPublisher publisher = AckedPublisher.bounded(client, name)) {
        placed = publisher.publish(List.of(new AckedPublisher.Out(ref.toString(),
            Topics.JOB_COMMANDS.name(), Topics.JOB_COMMANDS.key(ref.pool()),
            Topics.JOB_COMMANDS.value(command)))).get(0);
      }
      if (!placed.acked()) {
        return JobStatusCommand.problem(err, name, "Kafka did not take the cancel of " + ref
            + " (" + Topics.JOB_COMMANDS.name() + " at " + kafka.bootstrap + "): "
            + placed.problem(), JobCli.FAILED);
      }
      for (Answers.Answer a; (a = answers.next(deadline)) != null; ) {
        if (a.deadLetter() != null) {
          if (Topics.JOB_COMMANDS.name().equals(a.deadLetter().getSourceTopic())
              && a.deadLetter().getPartition() == placed.partition()
              && a.deadLetter().getOffset() == placed.offset()) {
            return JobStatusCommand.problem(err, name, "cancel of " + ref + " refused ("
                + JobText.refusal(a.deadLetter()) + ")", JobCli.FAILED);
          }
          continue;
        }
        JobStatus s = a.status();
        if (s.getState() == JobState.CANCELLED) {
          out.println(JobText.line(s));
          out.flush();
          return JobCli.OK;
        }
        // An answer on the way (e.g. a running attempt being stopped): the CANCELLED follows.
        err.println(JobText.line(s));
        err.flush();
      }
    }
    return JobStatusCommand.problem(err, name, "no answer to the cancel of " + ref
        + " (request " + requestId + ") on " + Topics.JOB_STATUS.name() + " or "
        + Topics.DEAD_LETTERS.name() + " at " + kafka.bootstrap + " within " + timeout
        + "; the cancel was sent: is the scheduler job running, and does it run pool "
        + ref.pool() + "? (with an exactly-once sink, answers appear at its next checkpoint)",
        JobCli.NO_ANSWER);
  }

  /** The command the arguments describe; a bad argument is an IllegalArgumentException. */
  JobCommand command(String requestId, long nowMs) {
    JobRef ref = JobRef.parse(pool, job);
    identifier("pool", ref.pool());
    identifier("job id", ref.jobId());
    if (reason.length() > Limits.MAX_TEXT_CHARS) {
      throw new IllegalArgumentException("--reason is " + reason.length() + " chars long, more"
          + " than the limit of " + Limits.MAX_TEXT_CHARS);
    }
    return JobCommand.newBuilder().setPool(ref.pool()).setJobId(ref.jobId())
        .setType(JobCommandType.CANCEL).setReason(reason).setRequestId(requestId)
        // When the user sent it, as the record says (the scheduler bounds input times).
        .setTimeMs(nowMs).build();
  }

  /** The scheduler's rule for ids (Validation.id): a refusal here beats one after the timeout. */
  private static void identifier(String what, String value) {
    if (value.length() > Limits.MAX_ID_CHARS) {
      throw new IllegalArgumentException(what + " is " + value.length() + " chars long, more"
          + " than the limit of " + Limits.MAX_ID_CHARS);
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " is blank");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(what + " contains a control character at index " + i);
      }
    }
  }
}
