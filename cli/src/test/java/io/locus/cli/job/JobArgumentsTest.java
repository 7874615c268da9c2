package io.locus.cli.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.LocusCli;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.JobSubmitted;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The job commands' arguments: what they turn into, and each mistake refused with exit 2 and what
 * is wrong, before any broker is contacted (the address given here has none).
 */
class JobArgumentsTest {
  /** Nothing listens here; a command that got past its argument checks would fail otherwise. */
  private static final String NO_BROKER = "127.0.0.1:9";

  @TempDir
  Path tmp;

  record Run(int code, String out, String err) {}

  static Run locus(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private static Run job(String command, String... args) {
    List<String> all = new ArrayList<>(List.of("job", command, "--bootstrap-servers", NO_BROKER));
    all.addAll(List.of(args));
    return locus(all.toArray(String[]::new));
  }

  private static JobSubmitCommand submit(String... args) {
    JobSubmitCommand c = new JobSubmitCommand();
    CommandLine cl = new CommandLine(c);
    cl.registerConverter(java.time.Duration.class, io.locus.kafka.cli.EntryPoints::duration);
    List<String> all = new ArrayList<>(List.of("--bootstrap-servers", NO_BROKER));
    all.addAll(List.of(args));
    cl.parseArgs(all.toArray(String[]::new));
    return c;
  }

  private Path trace(String... jobs) throws Exception {
    Path f = tmp.resolve("jobs-" + System.nanoTime() + ".jsonl");
    List<String> lines = new ArrayList<>();
    lines.add("{\"format\":\"locus-trace\",\"version\":1,\"name\":\"t\",\"jobs\":" + jobs.length
        + "}");
    lines.addAll(List.of(jobs));
    Files.write(f, lines);
    return f;
  }

  @Test
  void flagsDescribeOneJob() {
    JobSubmitted j = submit("--pool", "batch", "--job-id", "hand-1", "--input", "d/a.bin:64MB",
        "--input", "d/b:10", "--output", "out/c:1KiB", "--template", "sha", "--arg", "x",
        "--priority", "-1000", "--compute-seconds", "2.5").byHand();
    assertThat(j.getPool()).isEqualTo("batch");
    assertThat(j.getJobId()).isEqualTo("hand-1");
    assertThat(j.getInputs()).extracting(u -> u.getId() + "=" + u.getBytes())
        .containsExactly("d/a.bin=64000000", "d/b=10");
    assertThat(j.getOutputs()).extracting(u -> u.getId() + "=" + u.getBytes())
        .containsExactly("out/c=1024");
    assertThat(j.getTemplate()).isEqualTo("sha");
    assertThat(j.getArgs()).containsExactly("x");
    assertThat(j.getPriority()).isEqualTo(-1000);
    assertThat(j.getComputeSeconds()).isEqualTo(2.5);
    assertThat(j.getSubmitTimeMs()).isPositive();
    // without --job-id, an id is made (and printed once submitted)
    assertThat(submit("--pool", "p", "--input", "a:1").byHand().getJobId()).startsWith("job-");
  }

  @Test
  void aCancelIsACancelCommandWithItsRequestId() {
    JobCancelCommand c = new JobCancelCommand();
    CommandLine cl = new CommandLine(c);
    cl.registerConverter(java.time.Duration.class, io.locus.kafka.cli.EntryPoints::duration);
    cl.parseArgs("--bootstrap-servers", NO_BROKER, "batch/k4/3", "--reason",
        "superseded");
    var cmd = c.command("req-1", 1234);
    // the pool is what comes before the first '/': a job id may hold one
    assertThat(cmd.getPool()).isEqualTo("batch");
    assertThat(cmd.getJobId()).isEqualTo("k4/3");
    assertThat(cmd.getType()).isEqualTo(JobCommandType.CANCEL);
    assertThat(cmd.getReason()).isEqualTo("superseded");
    assertThat(cmd.getRequestId()).isEqualTo("req-1");
    assertThat(cmd.getTimeMs()).isEqualTo(1234);
  }

  @Test
  void badSubmitArgumentsExit2SayingWhatIsWrong() throws Exception {
    Run noPool = job("submit", "--job-id", "a", "--input", "x:1");
    assertThat(noPool.code()).isEqualTo(2);
    assertThat(noPool.err()).contains("--pool is required");

    Run badSpec = job("submit", "--pool", "p", "--input", "x");
    assertThat(badSpec.code()).isEqualTo(2);
    assertThat(badSpec.err()).contains("--input 'x': expected ID:BYTES");

    Run badSize = job("submit", "--pool", "p", "--input", "x:12parsecs");
    assertThat(badSize.code()).isEqualTo(2);
    assertThat(badSize.err()).contains("--input 'x:12parsecs'", "not a size");

    Run tooHigh = job("submit", "--pool", "p", "--input", "x:1", "--priority", "1001");
    assertThat(tooHigh.code()).isEqualTo(2);
    assertThat(tooHigh.err()).contains("priority 1001 is out of range [-1000, 1000]");

    Run noInputs = job("submit", "--pool", "p", "--job-id", "j");
    assertThat(noInputs.code()).as("the scheduler's own rule, checked before sending")
        .isEqualTo(2);
    assertThat(noInputs.err()).contains("job p/j: job has no inputs",
        "the scheduler would refuse it: invalid");

    Run both = job("submit", "--job-id", "x", trace().toString());
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("describe one job by hand");

    Run badTimeout = job("submit", "--pool", "p", "--input", "x:1", "--timeout", "0s");
    assertThat(badTimeout.code()).isEqualTo(2);
    assertThat(badTimeout.err()).contains("--timeout must be positive");

    for (Run r : List.of(noPool, badSpec, badSize, tooHigh, noInputs, both)) {
      assertThat(r.err()).doesNotContain("\tat ").doesNotContain("cannot reach Kafka");
    }
  }

  @Test
  void aFileWithAWorkflowIsRefusedPointingAtReplay() throws Exception {
    Path f = trace(
        "{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[{\"id\":\"x\",\"bytes\":1}],"
            + "\"computeSeconds\":0}",
        "{\"jobId\":\"b\",\"arrival\":0,\"inputs\":[{\"id\":\"x\",\"bytes\":1}],"
            + "\"computeSeconds\":0,\"parents\":[\"a\"]}");
    Run r = job("submit", "--pool", "p", f.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains(f + ": job b has parents [a]", "workflow",
        "locus replay --trace " + f);
    assertThat(r.out()).as("nothing submitted").isEmpty();
  }

  @Test
  void aFileIsCheckedWholeBeforeAnythingIsSent() throws Exception {
    Path noPool = trace("{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[{\"id\":\"x\",\"bytes\":1}],"
        + "\"computeSeconds\":0}");
    Run r = job("submit", noPool.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains(noPool + ": job a names no pool: give --pool");

    Path twice = trace(
        "{\"jobId\":\"a\",\"pool\":\"p\",\"arrival\":0,\"inputs\":[{\"id\":\"x\",\"bytes\":1}],"
            + "\"computeSeconds\":0}",
        "{\"jobId\":\"a\",\"pool\":\"p\",\"arrival\":1,\"inputs\":[{\"id\":\"x\",\"bytes\":1}],"
            + "\"computeSeconds\":0}");
    Run dup = job("submit", twice.toString());
    assertThat(dup.code()).isEqualTo(2);
    assertThat(dup.err()).contains("job a appears twice");

    Path badPriority = trace("{\"jobId\":\"a\",\"pool\":\"p\",\"arrival\":0,\"inputs\":[],"
        + "\"computeSeconds\":0,\"priority\":5000}");
    Run bp = job("submit", badPriority.toString());
    assertThat(bp.code()).isEqualTo(2);
    assertThat(bp.err()).contains("priority 5000 is out of range");

    java.io.InputStream old = System.in;
    System.setIn(new java.io.ByteArrayInputStream(
        "{\"format\":\"locus-trace\",\"version\":1,\"name\":\"t\",\"jobs\":1}\n[1\n"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    Run malformed;
    try {
      malformed = job("submit", "--pool", "p", "-");
    } finally {
      System.setIn(old);
    }
    assertThat(malformed.code()).isEqualTo(2);
    assertThat(malformed.err()).contains("stdin line 2: invalid JSON")
        .doesNotContain("locus-job-submit-");

    Run missing = job("submit", tmp.resolve("nope.jsonl").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("nope.jsonl does not exist");
  }

  @Test
  void badStatusListAndCancelArgumentsExit2() {
    Run noPool = job("status", "just-a-job");
    assertThat(noPool.code()).isEqualTo(2);
    assertThat(noPool.err()).contains("'just-a-job' names no pool: give POOL/JOB");

    Run listNoPool = job("list");
    assertThat(listNoPool.code()).isEqualTo(2);
    assertThat(listNoPool.err()).contains("--pool");

    Run badState = job("list", "--pool", "p", "--state", "QUEUED,SLEEPING");
    assertThat(badState.code()).isEqualTo(2);
    assertThat(badState.err()).contains("unknown state 'SLEEPING'", "RUNNING", "CANCELLED");

    Run longReason = job("cancel", "p/j", "--reason", "r".repeat(5000));
    assertThat(longReason.code()).isEqualTo(2);
    assertThat(longReason.err()).contains("--reason is 5000 chars long");

    Run longId = job("cancel", "p/" + "j".repeat(300));
    assertThat(longId.code()).isEqualTo(2);
    assertThat(longId.err()).contains("job id is 300 chars long", "256");

    Run noCommand = locus("job");
    assertThat(noCommand.code()).isEqualTo(2);
    assertThat(noCommand.err()).contains("submit, status, list or cancel");
  }

  /** Issue 24: a file's queues are sent, with a note that the pool must have them. */
  @Test
  void aFilesQueuesAreSentWithANote() throws Exception {
    Path f = trace(
        "{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[{\"id\":\"f\",\"bytes\":1}],"
            + "\"computeSeconds\":0,\"queue\":\"team-a\"}",
        "{\"jobId\":\"b\",\"arrival\":0,\"inputs\":[{\"id\":\"f\",\"bytes\":1}],"
            + "\"computeSeconds\":0}");
    JobSubmitCommand c = submit("--pool", "p", f.toString());
    StringWriter err = new StringWriter();
    c.spec.commandLine().setErr(new PrintWriter(err, true));
    assertThat(c.fromFile()).extracting(io.locus.schemas.JobSubmitted::getQueue)
        .containsExactly("team-a", null);
    assertThat(err.toString()).contains("note: 1 jobs of " + f + " name a queue: their pools must"
        + " have it as a leaf queue (locus queues apply)");
  }
}
