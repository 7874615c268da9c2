package io.locus.cli.job;

import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.Topics;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus job list}: the latest state of each job of a pool on the compacted job-status topic
 * (read whole, to the end it had when the command started), optionally only some states, then the
 * counts per state and, of the pending jobs, per pending code.
 */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "List the jobs of a pool with their latest state, read from the job-status"
        + " topic, and count them per state and per pending reason.",
    footer = {"", "Example:",
        "  locus job list --bootstrap-servers kafka:9092 --pool batch --state QUEUED"},
    exitCodeOnInvalidInput = 2)
public final class JobListCommand implements Callable<Integer> {
  /** Widest a reason is shown in the table (the whole one is in --json and job status). */
  private static final int REASON_CHARS = 60;

  @Spec CommandLine.Model.CommandSpec spec;

  // With ACLs: READ on job-status.
  @Mixin KafkaClientOptions kafka;

  @Option(names = "--pool", required = true, paramLabel = "POOL", description = "The pool.")
  String pool;

  @Option(names = "--state", split = ",", paramLabel = "STATE[,STATE...]",
      description = "Only jobs in these states: WAITING, QUEUED, PLACED, RUNNING, COMPLETED,"
          + " FAILED, CANCELLED, PREEMPTED. Default: all.")
  List<String> states = new ArrayList<>();

  @Option(names = "--json", description = "JSON, for programs.")
  boolean json;

  @Option(names = "--timeout", defaultValue = "30s", paramLabel = "DURATION",
      description = "Give up reading after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Override
  public Integer call() throws Exception {
    JobKafka.requirePositive("--timeout", timeout);
    if (pool.isBlank()) {
      throw new IllegalArgumentException("--pool must not be blank");
    }
    Set<JobState> wanted = states();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Properties client = JobKafka.client(kafka);
    List<String> missing = JobKafka.check(client, timeout, List.of(Topics.JOB_STATUS));
    if (!missing.isEmpty()) {
      return JobStatusCommand.problem(err, spec.qualifiedName(),
          JobKafka.missingMessage(missing, client), JobCli.FAILED);
    }
    List<JobStatus> jobs = new ArrayList<>();
    try {
      StatusTopic read = StatusTopic.read(JobKafka.reader(kafka),
          s -> s.getPool().equals(pool), false, timeout);
      read.jobs.values().forEach(seen -> {
        JobStatus s = seen.get(seen.size() - 1);
        if (wanted.contains(s.getState())) {
          jobs.add(s);
        }
      });
    } catch (StatusTopic.TimedOut e) {
      return JobStatusCommand.problem(err, spec.qualifiedName(), e.getMessage(), JobCli.NO_ANSWER);
    } catch (IllegalStateException e) {
      return JobStatusCommand.problem(err, spec.qualifiedName(), e.getMessage(), JobCli.FAILED);
    }
    Map<String, Integer> perState = new LinkedHashMap<>();
    for (JobState st : JobState.values()) {
      long n = jobs.stream().filter(j -> j.getState() == st).count();
      if (n > 0) {
        perState.put(st.name(), (int) n);
      }
    }
    Map<String, Integer> perCode = new TreeMap<>();
    jobs.stream().filter(j -> j.getPendingCode() != null)
        .forEach(j -> perCode.merge(j.getPendingCode(), 1, Integer::sum));
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pool", pool);
      List<Map<String, Object>> list = new ArrayList<>();
      jobs.forEach(j -> list.add(JobText.json(j)));
      m.put("jobs", list);
      m.put("perState", perState);
      m.put("perPendingCode", perCode);
      out.println(JobStatusCommand.JSON.writeValueAsString(m));
      out.flush();
      return JobCli.OK;
    }
    if (jobs.isEmpty()) {
      out.println("pool " + pool + ": no jobs" + (states.isEmpty() ? "" : " in state "
          + String.join(", ", wanted.stream().map(Enum::name).toList())) + " on "
          + Topics.JOB_STATUS.name() + " at " + kafka.bootstrap);
      out.flush();
      return JobCli.OK;
    }
    table(out, jobs);
    out.println(jobs.size() + (jobs.size() == 1 ? " job: " : " jobs: ") + counts(perState)
        + (perCode.isEmpty() ? "" : "; pending: " + counts(perCode)));
    out.flush();
    return JobCli.OK;
  }

  private Set<JobState> states() {
    if (states.isEmpty()) {
      return EnumSet.allOf(JobState.class);
    }
    Set<JobState> out = EnumSet.noneOf(JobState.class);
    for (String s : states) {
      try {
        JobState st = JobState.valueOf(s.strip().toUpperCase(Locale.ROOT));
        if (st == JobState.UNKNOWN) {
          throw new IllegalArgumentException();
        }
        out.add(st);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--state: unknown state '" + s + "'; states: "
            + String.join(", ", Arrays.stream(JobState.values())
                .filter(st -> st != JobState.UNKNOWN).map(Enum::name).toList()));
      }
    }
    return out;
  }

  private static void table(PrintWriter out, List<JobStatus> jobs) {
    int idWidth = Math.max(3, jobs.stream().mapToInt(j -> j.getJobId().length()).max().orElse(3));
    String format = "%-" + idWidth + "s  %-9s  %7s  %8s  %-12s  %-13s  %-24s  %s%n";
    out.printf(format, "JOB", "STATE", "ATTEMPT", "PRIORITY", "NODE", "PENDING", "SUBMITTED",
        "REASON");
    for (JobStatus j : jobs) {
      String reason = j.getReason().strip().replace('\n', ' ');
      if (reason.length() > REASON_CHARS) {
        reason = reason.substring(0, REASON_CHARS - 3) + "...";
      }
      out.printf(format, j.getJobId(), j.getState(), j.getAttempt(), j.getPriority(),
          j.getNode() == null ? "-" : j.getNode(),
          j.getPendingCode() == null ? "-" : j.getPendingCode(),
          JobText.time(j.getSubmitTimeMs()), reason.isEmpty() ? "-" : reason);
    }
  }

  private static String counts(Map<String, Integer> m) {
    List<String> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(v + " " + k));
    return String.join(", ", parts);
  }
}
