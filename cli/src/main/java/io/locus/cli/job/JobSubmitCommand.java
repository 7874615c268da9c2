package io.locus.cli.job;

import io.locus.cli.replay.AckedPublisher;
import io.locus.cli.replay.JobRecords;
import io.locus.connectors.functions.Validation;
import io.locus.core.model.InputFile;
import io.locus.core.model.Priority;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.workloads.TraceJob;
import io.locus.workloads.TraceReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
 * {@code locus job submit}: publishes jobs to job-arrivals, from a Locus trace file (or stdin) or
 * one job described by flags, and prints their ids once Kafka acknowledged them; with
 * {@code --wait}, follows them to their end ({@link SubmitWait}). Every job is checked by the
 * scheduler's own input rules before anything is sent, so one it would dead-letter is a bad
 * argument here, and a file is sent whole or not at all.
 */
@Command(name = "submit", mixinStandardHelpOptions = true,
    description = {"Submit jobs: every job of a Locus trace file (FILE, or - for stdin), all at"
        + " once, or one job described by --pool, --job-id, --input and the other flags. Prints"
        + " each submitted job as POOL/JOB, one per line, once Kafka acknowledged it.",
        "A job with parents is part of a workflow: submit the file with locus replay, which"
            + " hands the workflow to the scheduler."},
    footer = {"", "Examples:",
        "  locus job submit --bootstrap-servers kafka:9092 --pool batch --job-id hand-1 \\",
        "      --input d/a.bin:64MB --template sha --wait",
        "  locus job submit --bootstrap-servers kafka:9092 --pool batch jobs.jsonl"},
    exitCodeOnInvalidInput = 2)
public final class JobSubmitCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  // With ACLs: WRITE on job-arrivals; with --wait also READ on job-status and dead-letters.
  @Mixin KafkaClientOptions kafka;

  @Parameters(index = "0", arity = "0..1", paramLabel = "FILE|-",
      description = "A Locus trace (JSON lines, .gz ok); - reads it from stdin.")
  String file;

  @Option(names = "--pool", paramLabel = "POOL",
      description = "The pool of the job given by hand (required), or of every job of FILE"
          + " (overrides the file's; required when a job has none).")
  String pool;

  @Option(names = "--job-id", paramLabel = "ID",
      description = "The id of the job given by hand. Default: job- and a random UUID.")
  String jobId;

  @Option(names = "--input", paramLabel = "ID:BYTES",
      description = "An input file of the job given by hand, repeatable, in read order: its id"
          + " and size (64MB, 1.5GiB or bytes), e.g. --input d/a.bin:64MB.")
  List<String> inputs = new ArrayList<>();

  @Option(names = "--output", paramLabel = "ID:BYTES",
      description = "A file the job given by hand creates, repeatable: its id and expected size.")
  List<String> outputs = new ArrayList<>();

  @Option(names = "--compute-seconds", paramLabel = "S",
      description = "The job's compute after reading its inputs (simulated agents). Default: 0.")
  Double computeSeconds;

  @Option(names = "--template", paramLabel = "T",
      description = "The agents' task template to run. Default: the agent's default template.")
  String template;

  @Option(names = "--arg", paramLabel = "ARG",
      description = "An argument of the template, repeatable.")
  List<String> args = new ArrayList<>();

  @Option(names = "--priority", paramLabel = "N",
      description = "The job's priority, an integer in [-1000, 1000], higher first in its pool's"
          + " queue; with FILE, of every job that sets none. Default: 0.")
  Integer priority;

  @Option(names = "--wait", description = "Wait until every job completed: exit 0 then, or at"
      + " once non-zero with the scheduler's reason when one is refused, fails or is cancelled.")
  boolean waitForEnd;

  @Option(names = "--timeout", defaultValue = "1h", paramLabel = "DURATION",
      description = "With --wait, give up after this long (the jobs keep running). Default:"
          + " ${DEFAULT-VALUE}.")
  Duration timeout;

  @Override
  public Integer call() throws Exception {
    JobKafka.requirePositive("--timeout", timeout);
    if (priority != null && !Priority.valid(priority)) {
      throw new IllegalArgumentException("--priority: " + Priority.outOfRange(priority));
    }
    List<JobSubmitted> jobs = file != null ? fromFile() : List.of(byHand());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String name = spec.qualifiedName();
    Properties client = JobKafka.client(kafka);
    List<TopicSpec<?>> needed = waitForEnd
        ? List.of(Topics.JOB_ARRIVALS, Topics.JOB_STATUS, Topics.DEAD_LETTERS)
        : List.of(Topics.JOB_ARRIVALS);
    List<String> missing = JobKafka.check(client, timeout, needed);
    if (!missing.isEmpty()) {
      err.println(name + ": " + JobKafka.missingMessage(missing, client));
      err.flush();
      return JobCli.FAILED;
    }
    Set<String> ids = new HashSet<>();
    jobs.forEach(j -> ids.add(Topics.jobStatusKey(j.getPool(), j.getJobId())));
    // Positioned before the first record goes out, so no answer can come before it reads.
    Answers answers = waitForEnd ? Answers.open(JobKafka.reader(kafka),
        s -> ids.contains(JobText.key(s)), Set.of(Topics.JOB_ARRIVALS.name()),
        timeout.compareTo(Duration.ofSeconds(30)) < 0 ? timeout : Duration.ofSeconds(30))
        : null;
    try (answers) {
      List<AckedPublisher.Out> records = new ArrayList<>();
      for (JobSubmitted j : jobs) {
        records.add(new AckedPublisher.Out(Topics.jobStatusKey(j.getPool(), j.getJobId()),
            Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.key(j.getPool()),
            Topics.JOB_ARRIVALS.value(j)));
      }
      List<AckedPublisher.Placed> placed;
      try (AckedPublisher publisher = AckedPublisher.bounded(client, name)) {
        placed = publisher.publish(records);
      }
      List<String> problems = new ArrayList<>();
      for (AckedPublisher.Placed p : placed) {
        if (p.acked()) {
          out.println(p.record().label());
        } else {
          problems.add(p.record().label() + ": " + p.problem());
        }
      }
      out.flush();
      if (!problems.isEmpty()) {
        err.println(name + ": Kafka did not take " + problems.size() + " of " + placed.size()
            + " jobs (" + Topics.JOB_ARRIVALS.name() + " at " + kafka.bootstrap + "); the"
            + " first: " + problems.get(0));
        err.flush();
        return JobCli.FAILED;
      }
      if (answers == null) {
        return JobCli.OK;
      }
      return new SubmitWait(name, err, placed, timeout).await(answers);
    }
  }

  /** The one job the flags describe. */
  JobSubmitted byHand() {
    if (pool == null) {
      throw new IllegalArgumentException("--pool is required: the pool to submit the job to"
          + " (or give a FILE of jobs)");
    }
    String id = jobId != null ? jobId : "job-" + UUID.randomUUID();
    if (computeSeconds != null && !(computeSeconds >= 0 && Double.isFinite(computeSeconds))) {
      throw new IllegalArgumentException("--compute-seconds must be finite and >= 0, got "
          + computeSeconds);
    }
    TraceJob t = new TraceJob(id, pool, 0, files("--input", inputs),
        computeSeconds == null ? 0 : computeSeconds, 0, Map.of(), null, List.of(),
        files("--output", outputs), template, args, priority);
    return checked(JobRecords.toJob(t, pool, System.currentTimeMillis()), "");
  }

  /** Every job of the file, checked before any is sent. */
  List<JobSubmitted> fromFile() throws IOException {
    if (jobId != null || !inputs.isEmpty() || !outputs.isEmpty() || computeSeconds != null
        || template != null || !args.isEmpty()) {
      throw new IllegalArgumentException("--job-id, --input, --output, --compute-seconds,"
          + " --template and --arg describe one job by hand; the jobs of " + file
          + " are described by the file");
    }
    if (pool != null && pool.isBlank()) {
      throw new IllegalArgumentException("--pool must not be blank");
    }
    Path path = "-".equals(file) ? stdin() : Path.of(file);
    String source = "-".equals(file) ? "stdin" : file;
    if (!"-".equals(file) && !Files.isRegularFile(path)) {
      throw new IllegalArgumentException(file + " does not exist or is not a file");
    }
    List<JobSubmitted> jobs = new ArrayList<>();
    long queued = 0;
    Set<String> seen = new HashSet<>();
    long now = System.currentTimeMillis();
    try (TraceReader r = TraceReader.open(path)) {
      while (r.hasNext()) {
        TraceJob t = r.next();
        String where = source + ": job " + t.jobId();
        if (!t.parents().isEmpty()) {
          throw new IllegalArgumentException(where + " has parents " + t.parents() + ": the jobs"
              + " of the file are a workflow, which locus job submit does not submit (it would"
              + " release children before their parents complete); submit it with"
              + " locus replay --trace " + source + " (--pool P)");
        }
        if (t.stage() > 0) {
          throw new IllegalArgumentException(where + " is in stage " + t.stage() + ": a staged"
              + " trace is released stage by stage; submit it with locus replay --trace "
              + source);
        }
        if (t.events() != null) {
          throw new IllegalArgumentException(where + " is an event-range job (events): not a"
              + " job locus job submit sends");
        }
        String p = pool != null ? pool : t.pool();
        if (p == null) {
          throw new IllegalArgumentException(where + " names no pool: give --pool");
        }
        if (!seen.add(Topics.jobStatusKey(p, t.jobId()))) {
          throw new IllegalArgumentException(where + " appears twice (the scheduler would refuse"
              + " the second as a duplicate)");
        }
        queued += t.queue() != null ? 1 : 0;
        TraceJob withPriority = t.priority() == null && priority != null
            ? t.withPriority(priority) : t;
        jobs.add(checked(JobRecords.toJob(withPriority, p, now), source + ": "));
      }
    } catch (UncheckedIOException e) {
      throw new IllegalArgumentException("cannot read " + source + ": "
          + e.getCause().getMessage(), e);
    } catch (io.locus.workloads.TraceFormatException e) {
      if (!"-".equals(file)) {
        throw e; // names the file and the line already
      }
      // stdin went through a temporary file: name what the user gave, not it
      throw new IllegalArgumentException(e.getMessage().replace(path.toString(), "stdin"), e);
    } finally {
      if ("-".equals(file)) {
        Files.deleteIfExists(path);
      }
    }
    if (jobs.isEmpty()) {
      throw new IllegalArgumentException(source + " holds no jobs");
    }
    if (queued > 0) {
      spec.commandLine().getErr().println("note: " + io.locus.cli.ReplayCommand.QUEUES_NOTE
          .formatted(queued, source));
      spec.commandLine().getErr().flush();
    }
    return jobs;
  }

  /** The trace reader reads files: stdin is copied to a temporary one first. */
  private static Path stdin() throws IOException {
    Path tmp = Files.createTempFile("locus-job-submit-", ".jsonl");
    InputStream in = System.in;
    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
    return tmp;
  }

  /** The scheduler's input rules, here: a job it would dead-letter is a bad argument. */
  private static JobSubmitted checked(JobSubmitted j, String where) {
    Validation.jobSubmitted(j, j.getPool()).ifPresent(v -> {
      throw new IllegalArgumentException(where + "job " + Topics.jobStatusKey(j.getPool(),
          j.getJobId()) + ": " + v.reason() + " (the scheduler would refuse it: "
          + v.code() + ")");
    });
    return j;
  }

  /** {@code ID:BYTES} specs as files; the id is all before the last ':'. */
  private static List<InputFile> files(String option, List<String> specs) {
    List<InputFile> out = new ArrayList<>();
    for (String s : specs) {
      int colon = s.lastIndexOf(':');
      if (colon <= 0 || colon == s.length() - 1) {
        throw new IllegalArgumentException(option + " '" + s + "': expected ID:BYTES, e.g. "
            + option + " d/a.bin:64MB");
      }
      String size = s.substring(colon + 1).strip();
      long bytes;
      try {
        bytes = io.locus.schemas.units.ByteSize.parse(size.replace("_", "")).bytes();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(option + " '" + s + "': " + e.getMessage());
      }
      out.add(InputFile.of(s.substring(0, colon), bytes));
    }
    return out;
  }
}
