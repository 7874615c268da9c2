package io.locus.cli.job;

import io.locus.cli.replay.AckedPublisher;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code locus job submit --wait}: follows the submitted jobs on job-status, and the dead letters
 * of their own records (matched by the topic, partition and offset Kafka gave each), until every
 * job completed (exit 0), one is refused, fails for good or is cancelled (exit 1 at once, with the
 * scheduler's reason), or the timeout passes (exit 3). Each transition is written to stderr as it
 * comes, so stdout keeps only the ids.
 */
final class SubmitWait {
  private final String name;
  private final PrintWriter err;
  private final Duration timeout;
  /** Per record place ("partition/offset"), the job it carried. */
  private final Map<String, String> byPlace = new HashMap<>();
  /** The jobs not finished yet, with their latest state (null: none seen). */
  private final Map<String, JobStatus> open = new LinkedHashMap<>();

  SubmitWait(String name, PrintWriter err, List<AckedPublisher.Placed> placed, Duration timeout) {
    this.name = name;
    this.err = err;
    this.timeout = timeout;
    for (AckedPublisher.Placed p : placed) {
      byPlace.put(p.partition() + "/" + p.offset(), p.record().label());
      open.put(p.record().label(), null);
    }
  }

  int await(Answers answers) throws InterruptedException {
    int total = open.size();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!open.isEmpty()) {
      Answers.Answer a = answers.next(deadline);
      if (a == null) {
        return timedOut(total);
      }
      if (a.deadLetter() != null) {
        DeadLetter d = a.deadLetter();
        String job = Topics.JOB_ARRIVALS.name().equals(d.getSourceTopic())
            ? byPlace.get(d.getPartition() + "/" + d.getOffset()) : null;
        if (job != null) {
          return fail(job + " was refused by the scheduler (" + JobText.refusal(d) + ")");
        }
        continue;
      }
      JobStatus s = a.status();
      String job = JobText.key(s);
      if (!open.containsKey(job)) {
        continue; // one of ours that already finished
      }
      open.put(job, s);
      err.println(JobText.line(s));
      err.flush();
      if (s.getState() == JobState.COMPLETED) {
        open.remove(job);
      } else if (JobText.FINAL.contains(s.getState())) {
        return fail(job + " " + s.getState() + (s.getReason().isEmpty() ? ""
            : ": " + s.getReason().strip()));
      }
    }
    err.println(total == 1 ? "the job completed" : "all " + total + " jobs completed");
    err.flush();
    return JobCli.OK;
  }

  private int fail(String message) {
    err.println(name + ": " + message);
    err.flush();
    return JobCli.FAILED;
  }

  private int timedOut(int total) {
    long silent = open.values().stream().filter(s -> s == null).count();
    String first = open.entrySet().iterator().next().getValue() == null
        ? open.keySet().iterator().next() + " (no status yet)"
        : JobText.line(open.values().iterator().next());
    err.println(name + ": " + open.size() + " of " + total + " jobs did not finish within "
        + timeout + " (" + silent + " without any status: is the scheduler job running, and"
        + " does it run their pool?); they were submitted and go on; e.g. " + first
        + "; follow them with locus job status");
    err.flush();
    return JobCli.NO_ANSWER;
  }
}
