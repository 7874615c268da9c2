package io.locus.workloads;

import io.locus.core.share.QueueNames;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.core.model.InputFile;
import io.locus.schemas.limits.Limits;
import io.locus.workloads.DdThroughput.Locality;
import io.locus.workloads.DdThroughput.Mode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link TraceFormat}: round trips through {@link TraceWriter} and {@link TraceReader}, and errors. */
class TraceFormatTest {
  private static final String HEADER =
      "{\"format\":\"locus-trace\",\"version\":1,\"name\":\"t\",\"jobs\":%d}";
  private static final String JOB = "{\"jobId\":\"%s\",\"arrival\":%s,\"inputs\":[],\"computeSeconds\":0}";

  @TempDir
  Path dir;

  /** Jobs that use every field: pools, checksums, awkward doubles, stages, attributes. */
  private static List<TraceJob> mixed() {
    List<TraceJob> jobs = new ArrayList<>();
    jobs.add(new TraceJob("odd", "batch", 0.0, List.of(
        new InputFile("u1", 0, 1e-300, null, "sha256:ab"),
        // the largest size a reader accepts (the records' limit, Limits.MAX_FILE_BYTES)
        new InputFile("u2 \"quoted\" ü", Limits.MAX_FILE_BYTES, 0.0, "sn-3", null)),
        0.1 + 0.2, 0, Map.of("z", "last", "a", "first")));
    jobs.add(new TraceJob("dag-child", null, 0.0, List.of(InputFile.of("out-a", 10)), 2.5, 0,
        Map.of(), null, List.of("odd"), List.of(InputFile.of("out-b", 5),
            new InputFile("out-c", 7, 0.25, null, "sha256:cd")), "merge", List.of("--fast", "x y"))
        .withPriority(-7).withCancelAfter(12.5).withQueue("team-a-sub_1"));
    jobs.addAll(Stages18.workload().toList().subList(0, 5));
    jobs.addAll(DdThroughput.workload(1, 2, 7, Locality.FULL, Mode.READ_WRITE, 2).toList());
    // after the t = 0 jobs above, so the list stays sorted by arrival
    jobs.addAll(KhannaImageTrace.workload(KhannaImageTrace.Options.defaults(40), 600, 4).toList());
    return jobs;
  }

  @ParameterizedTest
  @ValueSource(strings = {"trace.jsonl", "trace.jsonl.gz"})
  void roundTripIsExact(String file) throws IOException {
    Path p = dir.resolve(file);
    Workload w = Workload.of("mixed", "every field", mixed());
    assertThat(TraceWriter.write(p, w)).isEqualTo(w.size());

    Workload back = TraceReader.readAll(p);
    assertThat(back.name()).isEqualTo("mixed");
    assertThat(back.description()).isEqualTo("every field");
    assertThat(back.toList()).isEqualTo(w.toList());
    // the streaming view replays the file on every pass
    Workload streamed = TraceReader.workload(p);
    assertThat(streamed.size()).isEqualTo(w.size());
    assertThat(streamed.toList()).isEqualTo(w.toList());
    assertThat(streamed.toList()).isEqualTo(w.toList());

    List<String> lines = lines(p);
    assertThat(lines).hasSize(1 + (int) w.size());
    JsonNode header = new ObjectMapper().readTree(lines.get(0));
    assertThat(header.get("format").asText()).isEqualTo("locus-trace");
    assertThat(header.get("version").asInt()).isEqualTo(1);
    assertThat(header.get("name").asText()).isEqualTo("mixed");
    assertThat(header.get("jobs").asLong()).isEqualTo(w.size());
    assertThat(lines.get(1)).startsWith("{\"jobId\":\"odd\",\"pool\":\"batch\",\"arrival\":0.0,");
    assertThat(lines.get(1)).contains("\"attributes\":{\"a\":\"first\",\"z\":\"last\"}");
    assertThat(lines.get(2)).isEqualTo("{\"jobId\":\"dag-child\",\"arrival\":0.0,\"inputs\":"
        + "[{\"id\":\"out-a\",\"bytes\":10}],\"computeSeconds\":2.5,\"stage\":0,"
        + "\"parents\":[\"odd\"],\"outputs\":[{\"id\":\"out-b\",\"bytes\":5},{\"id\":\"out-c\","
        + "\"bytes\":7,\"computeSeconds\":0.25,\"checksum\":\"sha256:cd\"}],\"template\":\"merge\","
        + "\"args\":[\"--fast\",\"x y\"],\"priority\":-7,\"cancelAfter\":12.5,"
        + "\"queue\":\"team-a-sub_1\"}");
    // a job without the issue-15, -23 and -24 fields is written exactly as before they existed
    assertThat(lines.get(3)).doesNotContain("parents", "outputs", "template", "args", "priority",
        "cancelAfter", "queue");
  }

  @Test
  void sameWorkloadSameBytes() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.jsonl");
    TraceWriter.write(a, Workloads.create("khanna", Map.of("n", "200"), 5));
    TraceWriter.write(b, Workloads.create("khanna", Map.of("n", "200"), 5));
    assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
  }

  @Test
  void emptyTraceRoundTrips() throws IOException {
    Path p = dir.resolve("empty.jsonl");
    TraceWriter.write(p, Workload.of("none", "", List.of()));
    assertThat(TraceReader.readAll(p).toList()).isEmpty();
  }

  /**
   * A line is parsed alone, so Jackson's own "line: 1, column: 1" is not the file's line: only
   * the file's line and the column within it are said.
   */
  @Test
  void malformedJsonSaysOnlyTheRealPlace() throws IOException {
    Path p = dir.resolve("unclosed.jsonl");
    Files.writeString(p, String.format(HEADER, 2) + "\n" + String.format(JOB, "a", "1.0")
        + "\n  [1\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> TraceReader.readAll(p).toList())
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(p + " line 3: invalid JSON at column ")
        .hasMessageContaining("expected close marker for Array (opened at column 3)")
        .hasMessageNotContaining("line: ")
        .hasMessageNotContaining("Source");
  }

  @Test
  void malformedInputIsReportedWithItsLine() {
    String h1 = String.format(HEADER, 1);
    String h2 = String.format(HEADER, 2);
    String ok = String.format(JOB, "a", "1.0");
    expect("", 1, "empty file");
    expect("{\"format\":\"csv\",\"version\":1,\"name\":\"t\",\"jobs\":0}", 1, "not a Locus trace");
    expect("{\"format\":\"locus-trace\",\"version\":2,\"name\":\"t\",\"jobs\":0}", 1,
        "unsupported trace version 2");
    expect("{\"format\":\"locus-trace\",\"version\":1,\"jobs\":0}", 1, "missing required field 'name'");
    expect(h1 + "\n{\"jobId\":\"a\",", 2, "invalid JSON");
    expect(h1 + "\n[1,2]", 2, "expected a JSON object");
    expect(h1 + "\n{\"jobId\":\"a\",\"inputs\":[],\"computeSeconds\":0}", 2,
        "missing required job field 'arrival'");
    expect(h1 + "\n" + String.format(JOB, "a", "\"soon\""), 2,
        "job field 'arrival' must be a number");
    expect(h1 + "\n" + String.format(JOB, "a", "-1"), 2, "arrival of a must be finite and >= 0");
    expect(h1 + "\n{\"jobId\":\"a\",\"arival\":1,\"inputs\":[],\"computeSeconds\":0}", 2,
        "unknown job field 'arival'");
    expect(h1 + "\n{\"jobId\":\"a\",\"jobId\":\"b\",\"arrival\":1,\"inputs\":[],"
        + "\"computeSeconds\":0}", 2, "Duplicate field 'jobId'");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[{\"id\":\"f\",\"bytes\":1.5}],"
        + "\"computeSeconds\":0}", 2, "'bytes' must be an integer >= 0");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[{\"id\":\"f\",\"bytes\":-1}],"
        + "\"computeSeconds\":0}", 2, "'bytes' must be an integer >= 0");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[{\"id\":\"f\",\"bytes\":1,"
        + "\"size\":1}],\"computeSeconds\":0}", 2, "unknown input field 'size'");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"stage\":1.5}", 2, "'stage' must be an integer >= 0");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"parents\":\"b\"}", 2, "job field 'parents' must be an array of strings");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"args\":[1]}", 2, "job field 'args' must hold non-empty strings");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"outputs\":[{\"id\":\"o\",\"bytes\":-1}]}", 2,
        "output 'o': field 'bytes' must be an integer >= 0");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"outputs\":[{\"id\":\"o\",\"bytes\":1,\"size\":1}]}", 2,
        "unknown output field 'size'");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"template\":7}", 2, "field 'template' must be a string");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"attributes\":{\"k\":1}}", 2, "attribute 'k' must be a string");
    expect(h2 + "\n" + String.format(JOB, "a", "5") + "\n\n" + String.format(JOB, "b", "4"), 4,
        "arrival 4.0 of job b is before the previous job's 5.0");
    expect(h2 + "\n" + ok + "\n", 3, "declares 2 jobs but the file ends after 1");
    expect(h1 + "\n" + ok + "\n" + String.format(JOB, "b", "2"), 3,
        "more jobs than the 1 the header declares");
  }

  /**
   * Issue 22: a line the scheduler or the agents would refuse is refused here, with its line and
   * by the same rules and limits (io.locus.schemas.limits): before, a 300-byte file id was read,
   * replayed, placed and then failed on every node.
   */
  @Test
  void idsAndSizesTheSchedulerOrTheAgentsWouldRefuseAreRefusedWithTheirLine() {
    String h2 = String.format(HEADER, 2);
    String ok = String.format(JOB, "a", "1.0");
    String longId = "x".repeat(300);
    expect(h2 + "\n" + ok + "\n{\"jobId\":\"b\",\"arrival\":1,\"inputs\":[{\"id\":\"" + longId
        + "\",\"bytes\":1}],\"computeSeconds\":0}", 3, "input id '" + "x".repeat(80)
        + "...' is 300 bytes as a file name, more than the limit of "
        + Limits.MAX_FILE_ID_BYTES);
    String h1 = String.format(HEADER, 1);
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"outputs\":[{\"id\":\"../o\",\"bytes\":1}]}", 2,
        "output id '../o' escapes the cache directory");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[{\"id\":\".incoming\","
        + "\"bytes\":1}],\"computeSeconds\":0}", 2, "input id '.incoming' starts with a dot");
    expect(h1 + "\n{\"jobId\":\"a\",\"arrival\":1,\"inputs\":[{\"id\":\"f\",\"bytes\":"
        + (Limits.MAX_FILE_BYTES + 1) + "}],\"computeSeconds\":0}", 2,
        "input 'f': " + (Limits.MAX_FILE_BYTES + 1) + " bytes is more than the limit of");
    expect(h1 + "\n" + String.format(JOB, "j".repeat(Limits.MAX_ID_CHARS + 1), "1.0"), 2,
        "job field 'jobId' is 257 chars long, more than the limit of 256");
  }

  @Test
  void aFileIdOfExactlyTheLimitIsRead() throws IOException {
    Path p = dir.resolve("limit.jsonl");
    String id = "x".repeat(Limits.MAX_FILE_ID_BYTES);
    Files.writeString(p, String.format(HEADER, 1) + "\n{\"jobId\":\"a\",\"arrival\":1,"
        + "\"inputs\":[{\"id\":\"" + id + "\",\"bytes\":1}],\"computeSeconds\":0}\n",
        StandardCharsets.UTF_8);
    assertThat(TraceReader.readAll(p).toList().get(0).inputs().get(0).id()).isEqualTo(id);
  }

  @Test
  void gzipIsDetectedByName() throws IOException {
    Path p = dir.resolve("t.jsonl.gz");
    TraceWriter.write(p, Stages18.workload());
    byte[] bytes = Files.readAllBytes(p);
    assertThat(bytes[0] & 0xff).isEqualTo(0x1f); // gzip magic
    assertThat(bytes[1] & 0xff).isEqualTo(0x8b);
    assertThat(TraceReader.readAll(p).size()).isEqualTo(1000);
  }

  @Test
  void writerEnforcesTheHeaderAndTheOrder() throws IOException {
    Path p = dir.resolve("w.jsonl");
    TraceWriter w = TraceWriter.open(p, "t", "", 2);
    w.write(new TraceJob("a", 5, List.of(), 0));
    assertThatThrownBy(() -> w.write(new TraceJob("b", 4, List.of(), 0)))
        .hasMessageContaining("before the previous job's 5.0");
    assertThatThrownBy(w::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("declares 2 jobs but 1 were written");
  }

  @Test
  void workloadPassesAreChecked() {
    List<TraceJob> unsorted = List.of(new TraceJob("a", 2, List.of(), 0),
        new TraceJob("b", 1, List.of(), 0));
    Workload bad = new Workload("bad", "", 2, unsorted::iterator);
    assertThatThrownBy(bad::toList).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("before the previous job's 2.0");
    Workload shortOne = new Workload("short", "", 3, List.of(unsorted.get(1))::iterator);
    assertThatThrownBy(shortOne::toList).hasMessageContaining("ended after 1 of 3 jobs");
  }

  @Test
  void traceJobValidatesAndSortsAttributes() {
    assertThatThrownBy(() -> new TraceJob("a", Double.NaN, List.of(), 0))
        .hasMessageContaining("arrival");
    assertThatThrownBy(() -> new TraceJob("a", 0, List.of(), -1))
        .hasMessageContaining("computeSeconds");
    assertThatThrownBy(() -> new TraceJob("a", null, 0, List.of(), 0, -1, Map.of()))
        .hasMessageContaining("stage");
    TraceJob j = new TraceJob("a", null, 0, List.of(InputFile.of("f", 3),
        new InputFile("g", 4, 0.5, null, null)), 1.0, 0, Map.of("b", "2", "a", "1", "c", "3"));
    assertThat(j.attributes().keySet()).containsExactly("a", "b", "c");
    assertThat(j.totalBytes()).isEqualTo(7);
    assertThat(j.totalComputeSeconds()).isEqualTo(1.5);
  }

  @Test
  void priorityIsReadBoundedAndDefaultedOnlyWhereUnset() throws IOException {
    Path p = dir.resolve("prio.jsonl");
    Files.writeString(p, String.format(HEADER, 2) + "\n"
        + "{\"jobId\":\"hi\",\"arrival\":0,\"inputs\":[],\"computeSeconds\":0,\"priority\":10}\n"
        + String.format(JOB, "plain", "1.0") + "\n", StandardCharsets.UTF_8);
    assertThat(TraceReader.readAll(p).stream().map(TraceJob::priority).toList())
        .containsExactly(10, null);
    // --priority: only the job that sets none takes it
    Workload w = TraceFiles.open(List.of(p), TraceFiles.Format.LOCUS, TraceFiles.Options.defaults())
        .withDefaultPriority(-3);
    assertThat(w.stream().map(TraceJob::priority).toList()).containsExactly(10, -3);
    assertThatThrownBy(() -> Workload.of("w", "", List.of()).withDefaultPriority(1001))
        .hasMessageContaining("priority 1001 is out of range [-1000, 1000]");

    String h = String.format(HEADER, 2) + "\n" + String.format(JOB, "a", "0") + "\n";
    String job = "{\"jobId\":\"b\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,\"priority\":%s}";
    expect(h + String.format(job, "1001"), 3, "priority 1001 is out of range [-1000, 1000]");
    expect(h + String.format(job, "-1001"), 3, "priority -1001 is out of range");
    expect(h + String.format(job, "99999999999"), 3, "priority 99999999999 is out of range");
    expect(h + String.format(job, "2.5"), 3, "job field 'priority' must be an integer");
    expect(h + String.format(job, "\"high\""), 3, "job field 'priority' must be an integer");
    // the records' bound (connectors' validation) and the core's are one range
    assertThat(Limits.MIN_PRIORITY).isEqualTo(io.locus.core.model.Priority.MIN);
    assertThat(Limits.MAX_PRIORITY).isEqualTo(io.locus.core.model.Priority.MAX);
  }

  @Test
  void queueIsReadWrittenAndDefaultedOnlyWhereUnset() throws IOException {
    Path p = dir.resolve("queues.jsonl");
    Files.writeString(p, String.format(HEADER, 2) + "\n"
        + "{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[],\"computeSeconds\":0,\"queue\":\"team-a\"}\n"
        + String.format(JOB, "plain", "1.0") + "\n", StandardCharsets.UTF_8);
    assertThat(TraceReader.readAll(p).stream().map(TraceJob::queue).toList())
        .containsExactly("team-a", null);
    // --queue: only the job that names none takes it
    Workload w = TraceFiles.open(List.of(p), TraceFiles.Format.LOCUS, TraceFiles.Options.defaults())
        .withDefaultQueue("batch");
    assertThat(w.stream().map(TraceJob::queue).toList()).containsExactly("team-a", "batch");
    // written only when set, after every other field
    Path out = dir.resolve("queues-out.jsonl");
    TraceWriter.write(out, w);
    List<String> lines = Files.readAllLines(out);
    assertThat(lines.get(1)).endsWith(",\"queue\":\"team-a\"}");
    assertThat(TraceReader.readAll(out).toList()).isEqualTo(w.toList());
    Path plain = dir.resolve("plain.jsonl");
    TraceWriter.write(plain, Workload.of("t", "", List.of(new TraceJob("x", 0, List.of(), 0))));
    assertThat(Files.readString(plain)).doesNotContain("queue");
    // --queues: every file's jobs to its queue, over the trace's own
    assertThat(TraceFiles.open(List.of(p), TraceFiles.Format.LOCUS, new TraceFiles.Options(1,
        List.of(), false, 1, null, List.of("ops"))).stream().map(TraceJob::queue).toList())
        .containsExactly("ops", "ops");
    assertThatThrownBy(() -> Workload.of("w", "", List.of()).withDefaultQueue("a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue name 'a b' has a character outside [A-Za-z0-9_-] at index 1");

    String h = String.format(HEADER, 2) + "\n" + String.format(JOB, "a", "0") + "\n";
    String job = "{\"jobId\":\"b\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,\"queue\":%s}";
    expect(h + String.format(job, "\"team a\""), 3,
        "queue of job b: queue name 'team a' has a character outside [A-Za-z0-9_-] at index 4");
    expect(h + String.format(job, "\"\""), 3, "queue of job b: a queue has no name");
    expect(h + String.format(job, "\"-x\""), 3,
        "queue of job b: queue name '-x' must start with a letter or a digit");
    expect(h + String.format(job, "\"a/b\""), 3, "queue name 'a/b' has a character outside [A-Za-z0-9_-] at index 1");
    expect(h + String.format(job, "\"" + "q".repeat(QueueNames.MAX_LENGTH + 1) + "\""), 3,
        "is 64 characters long (at most 63)");
    expect(h + String.format(job, "7"), 3, "field 'queue' must be a string, got 7");
    // a typo is still refused, not read as a missing queue
    expect(h + "{\"jobId\":\"b\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"queu\":\"x\"}", 3, "unknown job field 'queu'");
    assertThatThrownBy(() -> new TraceJob("x", 0, List.of(), 0).withQueue("ü"))
        .hasMessage("queue of job x: queue name 'ü' must start with a letter or a digit");
    assertThat(new TraceJob("x", 0, List.of(), 0).withQueue("u17").withPriority(3).queue())
        .isEqualTo("u17");
  }

  @Test
  void cancelAfterIsReadCheckedAndScaledWithTheTrace() throws IOException {
    Path p = dir.resolve("cancel.jsonl");
    Files.writeString(p, String.format(HEADER, 2) + "\n"
        + "{\"jobId\":\"c\",\"arrival\":4,\"inputs\":[],\"computeSeconds\":0,\"cancelAfter\":3}\n"
        + String.format(JOB, "plain", "5.0") + "\n", StandardCharsets.UTF_8);
    assertThat(TraceReader.readAll(p).stream().map(TraceJob::cancelAfter).toList())
        .containsExactly(3.0, null);
    // --time-scale scales the delay with the arrival it counts from
    Workload scaled = TraceFiles.open(List.of(p), TraceFiles.Format.LOCUS,
        new TraceFiles.Options(2.0, List.of(), false, 0L));
    assertThat(scaled.stream().map(TraceJob::cancelAfter).toList()).containsExactly(6.0, null);

    String h = String.format(HEADER, 2) + "\n" + String.format(JOB, "a", "0") + "\n";
    String job = "{\"jobId\":\"b\",\"arrival\":1,\"inputs\":[],\"computeSeconds\":0,"
        + "\"cancelAfter\":%s}";
    expect(h + String.format(job, "-1"), 3,
        "job field 'cancelAfter' must be a number of seconds >= 0 (after the job's arrival), got -1");
    expect(h + String.format(job, "\"10\""), 3, "job field 'cancelAfter' must be a number");
    expect(h + String.format(job, "1e400"), 3, "job field 'cancelAfter' must be a number");
    assertThatThrownBy(() -> new TraceJob("x", 0, List.of(), 0).withCancelAfter(Double.NaN))
        .hasMessageContaining("cancelAfter of x must be finite and >= 0: NaN");
  }

  private void expect(String content, long line, String message) {
    Path p = dir.resolve("bad-" + System.nanoTime() + ".jsonl");
    try {
      Files.writeString(p, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThatThrownBy(() -> TraceReader.readAll(p))
        .as(content)
        .isInstanceOfSatisfying(TraceFormatException.class, e -> assertThat(e.line()).isEqualTo(line))
        .hasMessageContaining(p + " line " + line + ": ")
        .hasMessageContaining(message);
  }

  private static List<String> lines(Path p) throws IOException {
    var in = Files.newInputStream(p);
    if (p.toString().endsWith(".gz")) {
      in = new GZIPInputStream(in);
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return r.lines().toList();
    }
  }
}
