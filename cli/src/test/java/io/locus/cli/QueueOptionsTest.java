package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.sim.SimulateCommand;
import io.locus.workloads.TraceJob;
import io.locus.workloads.TraceReader;
import io.locus.workloads.Workload;
import io.locus.workloads.Workloads;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfInstanceWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 24: the options that give trace jobs their queue (--queue, --queues, --swf-queue) in
 * {@code locus simulate} and {@code locus trace}, and the warning of {@code locus replay}, whose
 * record cannot carry a queue yet.
 */
class QueueOptionsTest {
  @TempDir Path tmp;

  private record Run(int code, String out, String err) {}

  private static Run locus(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  /** Users 7 and 8 in groups 1 and 2; job 3 has no user, no group (-1). */
  private Path swf() throws Exception {
    Path p = tmp.resolve("site.swf");
    Files.writeString(p, String.join("\n",
        "; Version: 2.2",
        "; MaxQueues: 2",
        // job submit wait run procs cpu mem reqprocs reqtime reqmem status user group exe queue part prev think
        "1 0 5 120 1 -1 -1 1 200 -1 1 7 1 3 1 1 -1 -1",
        "2 10 0 60 2 -1 -1 2 100 -1 1 8 2 3 2 1 -1 -1",
        "3 20 0 30 1 -1 -1 1 100 -1 1 -1 -1 4 2 1 -1 -1",
        ""));
    return p;
  }

  private static Map<String, String> queues(Workload w) {
    Map<String, String> m = new LinkedHashMap<>();
    w.forEach(j -> m.put(j.jobId(), j.queue()));
    return m;
  }

  private static Workload simulated(String... args) throws Exception {
    SimulateCommand cmd = new SimulateCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd.workload();
  }

  @Test
  void simulateTakesTheQueueFromAnSwfFieldAndTheDefaultForTheRest() throws Exception {
    Path log = swf();
    assertThat(queues(simulated("--trace", log.toString(), "--format", "swf", "--swf-queue",
        "user", "--queue", "others"))).containsExactly(Map.entry("site/1", "u7"),
            Map.entry("site/2", "u8"), Map.entry("site/3", "others"));
    assertThat(queues(simulated("--trace", log.toString(), "--format", "swf", "--swf-queue",
        "GROUP")).values()).containsExactly("g1", "g2", null);
    assertThat(queues(simulated("--trace", log.toString(), "--format", "swf", "--swf-queue",
        "queue")).values()).containsExactly("q1", "q2", "q2");
    // without the options nothing changes: no job names a queue
    assertThat(queues(simulated("--trace", log.toString(), "--format", "swf")).values())
        .containsOnlyNulls();
    // and the run itself goes through
    Run r = locus("simulate", "--trace", log.toString(), "--format", "swf", "--swf-queue",
        "user", "--nodes", "2", "--provisioning", "srp", "--quiet", "--no-plots", "--out",
        tmp.resolve("out").toString());
    assertThat(r.code()).as(r.err()).isZero();
  }

  @Test
  void simulateSendsEachWorkflowWholeToItsQueueAndKeepsTheGeneratorsQueues() throws Exception {
    Path a = tmp.resolve("a.json");
    Path b = tmp.resolve("b.json");
    WfInstanceWriter.write(SyntheticWorkflows.blast(2, 1000), "1.5", a);
    WfInstanceWriter.write(SyntheticWorkflows.blast(3, 1000), "1.4", b);
    Workload w = simulated("--trace", a.toString(), b.toString(), "--format", "wfcommons",
        "--queues", "team-a,team-b");
    assertThat(w.stream()).allSatisfy(j -> assertThat(j.queue())
        .isEqualTo(j.jobId().startsWith("a/") ? "team-a" : "team-b"));
    Workload tenants = simulated("--workload", "tenants", "--workload-param", "tenants=2",
        "--workload-param", "workflows=1", "--workload-param", "flood=1", "--queue", "ignored");
    assertThat(tenants.stream().map(TraceJob::queue).distinct())
        .containsExactly("tenant-1", "tenant-2");
  }

  @Test
  void badQueueOptionsAreUsageErrorsNamingTheOption() throws Exception {
    Run r = locus("simulate", "--workload", "stages18", "--swf-queue", "user", "--queues", "a");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--swf-queue applies to --trace files only",
        "--queues applies to --trace files only");
    Path wf = tmp.resolve("w.json");
    WfInstanceWriter.write(SyntheticWorkflows.blast(2, 1000), "1.5", wf);
    Run s = locus("simulate", "--trace", wf.toString(), "--format", "wfcommons", "--swf-queue",
        "user", "--queues", "ok,not ok", "--queue", "-x");
    assertThat(s.code()).isEqualTo(2);
    assertThat(s.err()).contains("--swf-queue applies to --format swf only",
        "--queues: queue name 'not ok' has a character outside [A-Za-z0-9_-] at index 3",
        "--queue: queue name '-x' must start with a letter or a digit");
    Run t = locus("simulate", "--trace", swf().toString(), "--format", "swf", "--swf-queue",
        "account");
    assertThat(t.code()).isEqualTo(2);
    assertThat(t.err()).contains("--swf-queue: unknown SWF queue field 'account'; valid: none,"
        + " user, group, executable, queue, partition");
  }

  @Test
  void traceWritesTheQueuesItWasGiven() throws Exception {
    Path out = tmp.resolve("site.jsonl");
    Run r = locus("trace", "--trace", swf().toString(), "--swf-queue", "group", "--queue",
        "rest", "-o", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(queues(TraceReader.readAll(out)).values()).containsExactly("g1", "g2", "rest");
    Run bad = locus("trace", "--trace", out.toString(), "--swf-queue", "user", "-o",
        tmp.resolve("x.jsonl").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--swf-queue is for SWF logs; these are locus traces");
  }

  /** --time-scale on a generated workload kept neither the queue nor a cancel delay. */
  @Test
  void scalingAGeneratedWorkloadKeepsQueuesAndScalesCancels() throws Exception {
    Workload w = Workload.of("w", "", List.of(new TraceJob("j", 4, List.of(), 2)
        .withQueue("team-a").withCancelAfter(3.0).withPriority(5)));
    TraceJob j = WorkloadSource.scaled(w, 0.5).toList().get(0);
    assertThat(j.queue()).isEqualTo("team-a");
    assertThat(j.cancelAfter()).isEqualTo(1.5);
    assertThat(j.priority()).isEqualTo(5);
    assertThat(j.arrival()).isEqualTo(2.0);
    Path out = tmp.resolve("tenants.jsonl");
    Run r = locus("trace", "--workload", "tenants", "--workload-param", "tenants=2",
        "--workload-param", "workflows=1", "--workload-param", "flood=1", "--time-scale", "0.1",
        "-o", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(TraceReader.readAll(out).stream().map(TraceJob::queue).distinct())
        .containsExactly("tenant-1", "tenant-2");
    assertThat(Workloads.names()).contains("tenants");
  }

  @Test
  void replayNotesThatItsPoolsMustHaveTheQueues() throws Exception {
    Path trace = tmp.resolve("q.jsonl");
    locus("trace", "--trace", swf().toString(), "--swf-queue", "user", "-o", trace.toString());
    // the warning comes from the scan, before Kafka is tried (nothing listens on port 1)
    Run r = locus("replay", "--trace", trace.toString(), "--pool", "p", "--bootstrap-servers",
        "127.0.0.1:1", "--connect-timeout", "1s", "--no-wait", "-q");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("note: 2 jobs of site name a queue: their pools must have it as"
        + " a leaf queue (locus queues apply)");
  }
}
