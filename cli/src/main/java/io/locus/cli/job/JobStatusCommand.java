package io.locus.cli.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code locus job status}: one job's latest state as the scheduler published it on the compacted
 * job-status topic (read whole, to the end it had when the command started), or every transition
 * still there. A job with no status is looked for among the dead letters (the scheduler refused
 * its record); otherwise it is unknown: exit 3.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show a job's latest state, reason, pending code, attempt, node and times, read"
        + " from the job-status topic.",
    footer = {"", "Example:", "  locus job status --bootstrap-servers kafka:9092 batch/hand-1"},
    exitCodeOnInvalidInput = 2)
public final class JobStatusCommand implements Callable<Integer> {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Spec CommandLine.Model.CommandSpec spec;

  // With ACLs: READ on job-status and dead-letters.
  @Mixin KafkaClientOptions kafka;

  @Parameters(index = "0", paramLabel = "POOL/JOB",
      description = "The job: POOL/JOB, or JOB with --pool.")
  String job;

  @Option(names = "--pool", paramLabel = "POOL", description = "The job's pool.")
  String pool;

  @Option(names = "--history", description = "Every transition still on the topic, oldest first"
      + " (compaction may have removed older ones).")
  boolean history;

  @Option(names = "--json", description = "JSON, for programs.")
  boolean json;

  @Option(names = "--timeout", defaultValue = "30s", paramLabel = "DURATION",
      description = "Give up reading after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Override
  public Integer call() throws Exception {
    JobKafka.requirePositive("--timeout", timeout);
    JobRef ref = JobRef.parse(pool, job);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String name = spec.qualifiedName();
    Properties client = JobKafka.client(kafka);
    List<String> missing = JobKafka.check(client, timeout, List.of(Topics.JOB_STATUS));
    if (!missing.isEmpty()) {
      return problem(err, spec.qualifiedName(), JobKafka.missingMessage(missing, client),
          JobCli.FAILED);
    }
    Properties reader = JobKafka.reader(kafka);
    List<JobStatus> seen;
    DeadLetter refused = null;
    try {
      seen = StatusTopic.read(reader, s -> s.getPool().equals(ref.pool())
          && s.getJobId().equals(ref.jobId()), history, timeout).jobs
          .getOrDefault(ref.toString(), List.of());
      if (seen.isEmpty() && JobKafka.check(client, timeout, List.of(Topics.DEAD_LETTERS))
          .isEmpty()) {
        refused = StatusTopic.refusal(reader, ref, timeout);
      }
    } catch (StatusTopic.TimedOut e) {
      return problem(err, spec.qualifiedName(), e.getMessage(), JobCli.NO_ANSWER);
    } catch (IllegalStateException e) {
      return problem(err, spec.qualifiedName(), e.getMessage(), JobCli.FAILED);
    }
    if (seen.isEmpty() && refused != null) {
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pool", ref.pool());
        m.put("jobId", ref.jobId());
        m.put("state", "REFUSED");
        m.put("code", refused.getCode());
        m.put("reason", refused.getReason());
        m.put("timeMs", refused.getTimeMs());
        out.println(JSON.writeValueAsString(m));
        out.flush();
      }
      return problem(err, spec.qualifiedName(), "job " + ref + " was refused by the scheduler ("
          + JobText.refusal(refused) + ", at " + JobText.time(refused.getTimeMs()) + ")",
          JobCli.FAILED);
    }
    if (seen.isEmpty()) {
      return problem(err, spec.qualifiedName(), "no job " + ref + " on "
          + Topics.JOB_STATUS.name() + " at " + kafka.bootstrap + ": never submitted there,"
          + " not yet read by the scheduler (is it running, and does it run pool "
          + ref.pool() + "?), or finished more than the"
          + " topic's retention (7 days) ago; locus job list --pool " + ref.pool()
          + " lists the pool's jobs", JobCli.NO_ANSWER);
    }
    JobStatus latest = seen.get(seen.size() - 1);
    if (json) {
      Map<String, Object> m = JobText.json(latest);
      if (history) {
        List<Map<String, Object>> h = new ArrayList<>();
        seen.forEach(s -> h.add(JobText.json(s)));
        m.put("history", h);
      }
      out.println(JSON.writeValueAsString(m));
    } else {
      out.print(JobText.block(latest));
      if (history) {
        out.println("  history (oldest first; compaction may have removed older ones):");
        for (JobStatus s : seen) {
          out.println("    " + JobText.time(s.getTimeMs()) + "  " + JobText.line(s));
        }
      }
    }
    out.flush();
    return JobCli.OK;
  }

  /** Writes "locus job X: message" and returns {@code code}. */
  static int problem(PrintWriter err, String command, String message, int code) {
    err.println(command + ": " + message);
    err.flush();
    return code;
  }
}
