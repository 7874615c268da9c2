package io.locus.workloads.wf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.locus.core.model.InputFile;
import io.locus.schemas.limits.Limits;
import io.locus.workloads.TraceFormatException;
import io.locus.workloads.TraceJob;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every WfFormat version written by {@link WfInstanceWriter} reads back the same; every error. */
class WfInstanceReaderTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  static List<String> versions() {
    return WfInstanceReader.VERSIONS;
  }

  /** What must survive any version: ids, DAG, files and sizes, runtimes. */
  record Shape(String jobId, double arrival, List<String> parents, List<InputFile> inputs,
      List<InputFile> outputs, double compute) {
    static Shape of(TraceJob j) {
      return new Shape(j.jobId(), j.arrival(), j.parents(), j.inputs(), j.outputs(),
          j.computeSeconds());
    }
  }

  private static List<Shape> shapes(List<TraceJob> jobs) {
    return jobs.stream().map(Shape::of).toList();
  }

  @ParameterizedTest
  @MethodSource("versions")
  void everyVersionReadsBackTheSameWorkflow(String version) throws IOException {
    for (WfWorkflow wf : List.of(SyntheticWorkflows.blast(6, 5_000_000_000L),
        SyntheticWorkflows.genome(2, 3, 2))) {
      Path p = dir.resolve(wf.name() + "-" + version + ".json");
      WfInstanceWriter.write(wf, version, p);
      assertThat(JSON.readTree(p.toFile()).get("schemaVersion").asText()).isEqualTo(version);
      WfWorkflow back = WfInstanceReader.read(p);
      assertThat(back.name()).isEqualTo(wf.name());
      assertThat(back.fileSizes()).isEqualTo(wf.fileSizes());
      List<TraceJob> expected = WfJobs.jobs(wf, "i", 0.5);
      List<TraceJob> got = WfJobs.jobs(back, "i", 0.5);
      assertThat(shapes(got)).isEqualTo(shapes(expected));
      // categories survive from 1.2 on (1.0 and 1.1 have none)
      if (version.compareTo("1.2") >= 0) {
        assertThat(got).extracting(j -> j.attributes().get("category"))
            .isEqualTo(expected.stream().map(j -> j.attributes().get("category")).toList());
      }
      assertThat(got).allSatisfy(j -> assertThat(j.attributes()).containsEntry("workflow",
          wf.name()));
    }
  }

  @Test
  void jobsAreTopologicalWithTiesById() {
    WfWorkflow wf = SyntheticWorkflows.genome(2, 3, 2);
    List<TraceJob> jobs = WfJobs.jobs(wf, "g", 2.0);
    assertThat(jobs).hasSize(wf.tasks().size());
    Set<String> done = new HashSet<>();
    for (TraceJob j : jobs) {
      assertThat(done).as(j.jobId()).containsAll(j.parents());
      assertThat(j.arrival()).isZero();
      assertThat(j.jobId()).startsWith("g/");
      done.add(j.jobId());
    }
    // the roots come first, smallest id first: individuals_ID0000001 < ... < sifting_*
    assertThat(jobs.get(0).jobId()).isEqualTo("g/individuals_ID0000001");
    assertThat(jobs.stream().map(j -> j.jobId().substring(2)).toList()).containsExactly(
        "individuals_ID0000001", "individuals_ID0000002", "individuals_ID0000003",
        "individuals_ID0000010", "individuals_ID0000011", "individuals_ID0000012",
        "individuals_merge_ID0000004", "individuals_merge_ID0000013", "sifting_ID0000005",
        "frequency_ID0000007", "frequency_ID0000009", "mutation_overlap_ID0000006",
        "mutation_overlap_ID0000008", "sifting_ID0000014", "frequency_ID0000016",
        "frequency_ID0000018", "mutation_overlap_ID0000015", "mutation_overlap_ID0000017");
    // time scale applies to runtimes; inputs carry prefixed ids and sizes
    TraceJob first = jobs.get(0);
    assertThat(first.computeSeconds()).isEqualTo((120.0 + 1) * 2.0);
    assertThat(first.inputs()).containsExactly(
        InputFile.of("g/ALL.chr1.250000.vcf", 307_000_000L), InputFile.of("g/columns.txt", 20_000));
    assertThat(first.outputs()).containsExactly(InputFile.of("g/chr1n-0.tar.gz", 15_000_000L));
  }

  @Test
  void storageInputsAreTheFilesNoTaskWrites() {
    List<TraceJob> jobs = WfJobs.jobs(SyntheticWorkflows.blast(3, 1000), "b", 1);
    assertThat(io.locus.workloads.TraceFiles.storageInputs(jobs)).extracting(InputFile::id)
        .containsExactlyInAnyOrder("b/query.fasta", "b/nt");
  }

  @Test
  void gzipAndUnknownPropertiesAreAccepted() throws IOException {
    ObjectNode root = WfInstanceWriter.toJson(SyntheticWorkflows.blast(2, 10), "1.6");
    root.put("somethingNew", 1);
    task(root, 0).put("extra", "ignored");
    Path p = dir.resolve("blast.json.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      JSON.writeValue(out, root);
    }
    assertThat(WfInstanceReader.read(p).tasks()).hasSize(4);
  }

  @Test
  void aFileATaskReadsAndWritesIsItsOutput() throws IOException {
    ObjectNode root = WfInstanceWriter.toJson(SyntheticWorkflows.blast(2, 10), "1.5");
    ((ArrayNode) task(root, 1).get("inputFiles")).add("query.fasta.0.out");
    WfWorkflow wf = read(root);
    assertThat(wf.tasks().get(1).inputs()).containsExactly("nt", "query.fasta.0");
    assertThat(wf.tasks().get(1).outputs()).containsExactly("query.fasta.0.out");
  }

  @Test
  void edgesDeclaredOnOneEndOnlyGiveTheSameDag() throws IOException {
    WfWorkflow wf = SyntheticWorkflows.genome(1, 3, 2);
    List<Shape> expected = shapes(WfJobs.jobs(wf, "i", 1));
    // 1.4 with children only
    ObjectNode childrenOnly = WfInstanceWriter.toJson(wf, "1.4");
    childrenOnly.get("workflow").get("tasks").forEach(t -> ((ObjectNode) t).remove("parents"));
    assertThat(shapes(WfJobs.jobs(read(childrenOnly), "i", 1))).isEqualTo(expected);
    // 1.5 with parents only
    ObjectNode parentsOnly = WfInstanceWriter.toJson(wf, "1.5");
    spec(parentsOnly).get("tasks").forEach(t -> ((ObjectNode) t).remove("children"));
    assertThat(shapes(WfJobs.jobs(read(parentsOnly), "i", 1))).isEqualTo(expected);
  }

  @Test
  void aSpecificationWithoutExecutionHasZeroRuntimes() throws IOException {
    ObjectNode root = WfInstanceWriter.toJson(SyntheticWorkflows.blast(2, 10), "1.6");
    ((ObjectNode) root.get("workflow")).remove("execution");
    WfWorkflow wf = read(root);
    assertThat(wf.tasks()).hasSize(4).allSatisfy(t -> assertThat(t.runtimeSeconds()).isZero());
    // and the spec's names and the command's programs become attributes when present
    ObjectNode named = WfInstanceWriter.toJson(SyntheticWorkflows.blast(2, 10), "1.5");
    task(named, 0).put("name", "split");
    TraceJob first = WfJobs.jobs(read(named), "b", 1).get(0);
    assertThat(first.attributes()).containsEntry("name", "split")
        .containsEntry("category", "split_fasta").containsEntry("workflow", "blast-2");
  }

  @Test
  void oldNamesIn14AndMakespansAsText() throws IOException {
    WfWorkflow wf = SyntheticWorkflows.blast(3, 77);
    ObjectNode root = WfInstanceWriter.toJson(wf, "1.4");
    ObjectNode workflow = (ObjectNode) root.get("workflow");
    workflow.put("makespan", "41.5");
    workflow.remove("makespanInSeconds");
    for (var t : workflow.get("tasks")) {
      ObjectNode task = (ObjectNode) t;
      task.set("runtime", task.remove("runtimeInSeconds"));
      task.get("files").forEach(f -> ((ObjectNode) f).set("size",
          ((ObjectNode) f).remove("sizeInBytes")));
    }
    assertThat(shapes(WfJobs.jobs(read(root), "i", 1)))
        .isEqualTo(shapes(WfJobs.jobs(wf, "i", 1)));
    // The makespan is not read by scheduling: a bad one is a warning, never a refusal.
    workflow.put("makespan", "long");
    assertThat(read(root).warnings()).singleElement().asString().endsWith(
        "$.workflow.makespan: must be a number, got \"long\" (ignored: scheduling does not "
            + "use $.workflow.makespan)");
  }

  @Test
  void datesInBasicAndExtendedForm() {
    assertThat(WfDates.parse("20210101T120000Z"))
        .isEqualTo(OffsetDateTime.of(2021, 1, 1, 12, 0, 0, 0, ZoneOffset.UTC));
    assertThat(WfDates.parse("2021-01-01T12:00:00+01:00"))
        .isEqualTo(OffsetDateTime.of(2021, 1, 1, 12, 0, 0, 0, ZoneOffset.ofHours(1)));
    assertThat(WfDates.parse("20201120T093416-0800"))
        .isEqualTo(OffsetDateTime.of(2020, 11, 20, 9, 34, 16, 0, ZoneOffset.ofHours(-8)));
    assertThat(WfDates.parse("2020-12-30T02:24:13.540715"))
        .isEqualTo(OffsetDateTime.of(2020, 12, 30, 2, 24, 13, 540_715_000, ZoneOffset.UTC));
    assertThat(WfDates.parse("20210101T120000,5+0530").getNano()).isEqualTo(500_000_000);
    assertThat(WfDates.parse("2021-01-01 12:00Z").getMinute()).isZero();
    for (String bad : List.of("2021-13-01T00:00:00Z", "2021-02-30T00:00:00Z", "yesterday",
        "2021-01-01", "2021-01-01T25:00:00Z", "2021-01-01T12:00:00+01:99")) {
      assertThatThrownBy(() -> WfDates.parse(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad);
    }
  }

  // ------------------------------------------------------------------ errors, with their paths

  @Test
  void versionErrorsNameTheValueAndTheKnownVersions() {
    expect("1.5", r -> r.put("schemaVersion", "2.0"), "$.schemaVersion: unknown WfFormat version "
        + "'2.0'; known versions: 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6");
    expect("1.5", r -> r.remove("schemaVersion"), "$: missing required field 'schemaVersion'; "
        + "known WfFormat versions: 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6");
    expect("1.5", r -> r.put("schemaVersion", 1.5),
        "$.schemaVersion: must be a string such as \"1.5\", got 1.5");
  }

  @Test
  void missingFieldsAndWrongTypes() {
    expect("1.5", r -> task(r, 1).remove("id"),
        "$.workflow.specification.tasks[1]: missing required field 'id'");
    expect("1.6", r -> run(r, 2).put("runtimeInSeconds", "fast"),
        "$.workflow.execution.tasks[2].runtimeInSeconds: must be a number, got \"fast\"");
    expect("1.6", r -> run(r, 2).remove("runtimeInSeconds"),
        "$.workflow.execution.tasks[2]: missing required field 'runtimeInSeconds'");
    expect("1.5", r -> spec(r).put("tasks", "none"),
        "$.workflow.specification.tasks: must be an array, got \"none\"");
    expect("1.5", r -> r.remove("workflow"), "$: missing required field 'workflow'");
    expect("1.1", r -> job(r, "jobs", 2).remove("runtime"),
        "$.workflow.jobs[2]: missing required field 'runtime'");
    expect("1.4", r -> ((ObjectNode) job(r, "tasks", 1).get("files").get(0)).put("sizeInBytes",
        1.5), "$.workflow.tasks[1].files[0].sizeInBytes: must be an integer number of bytes, got 1.5");
    expect("1.2", r -> ((ObjectNode) job(r, "jobs", 1).get("files").get(0)).put("link", "both"),
        "$.workflow.jobs[1].files[0].link: must be \"input\" or \"output\", got \"both\"");
    expect("1.5", r -> execution(r).remove("tasks"),
        "$.workflow.execution: missing required field 'tasks'");
    expect("1.5", r -> ((ArrayNode) execution(r).get("tasks")).remove(3),
        "$.workflow.execution.tasks: no entry (runtime) for task 'blastall_ID0000004' of "
            + "$.workflow.specification.tasks");
  }

  @Test
  void negativeSizesAndRuntimes() {
    expect("1.6", r -> ((ObjectNode) spec(r).get("files").get(1)).put("sizeInBytes", -5),
        "$.workflow.specification.files[1].sizeInBytes: must be >= 0, got -5");
    expect("1.6", r -> run(r, 0).put("runtimeInSeconds", -0.5),
        "$.workflow.execution.tasks[0].runtimeInSeconds: must be finite and >= 0, got -0.5");
    expect("1.0", r -> ((ObjectNode) job(r, "jobs", 0).get("files").get(0)).put("size", -1),
        "$.workflow.jobs[0].files[0].size: must be >= 0, got -1");
    expect("1.3", r -> job(r, "tasks", 0).put("runtime", -3),
        "$.workflow.tasks[0].runtime: must be finite and >= 0, got -3");
  }

  /**
   * Issue 22: a file the scheduler and the agents would refuse as a file id is refused with its
   * JSON path (the same rule and limit, io.locus.schemas.limits), not replayed and failed on
   * every node.
   */
  @Test
  void fileIdsTheAgentsWouldRefuseAreRefusedWithTheirPath() throws IOException {
    expect("1.6", r -> ((ObjectNode) spec(r).get("files").get(1)).put("id", "x".repeat(300)),
        "$.workflow.specification.files[1].id: file id '" + "x".repeat(80) + "...' is 300 bytes"
            + " as a file name, more than the limit of " + Limits.MAX_FILE_ID_BYTES);
    expect("1.0", r -> ((ObjectNode) job(r, "jobs", 0).get("files").get(0)).put("name", "../f"),
        "$.workflow.jobs[0].files[0].name: file id '../f' escapes the cache directory");
    // Within the limit alone, but not once the replay prefixes it with the instance name.
    ObjectNode root = WfInstanceWriter.toJson(SyntheticWorkflows.blast(3, 1_000), "1.0");
    ObjectNode file = (ObjectNode) job(root, "jobs", 0).get("files").get(0);
    String name = file.get("name").asText(); // renamed wherever a job reads or writes it
    String longName = "y".repeat(250);
    for (var j : root.get("workflow").get("jobs")) {
      for (var f : j.get("files")) {
        if (f.get("name").asText().equals(name)) {
          ((ObjectNode) f).put("name", longName);
        }
      }
    }
    WfWorkflow wf = read(root);
    assertThatThrownBy(() -> WfJobs.jobs(wf, "blast-001", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("file id 'blast-001/yyyy")
        .hasMessageEndingWith("is 262 bytes as a file name, more than the limit of 255");
  }

  @Test
  void duplicatesAndUnknownReferences() {
    expect("1.5", r -> task(r, 2).put("id", "blastall_ID0000002"),
        "$.workflow.specification.tasks[2].id: duplicate task 'blastall_ID0000002' (also "
            + "$.workflow.specification.tasks[1].id)");
    expect("1.6", r -> ((ObjectNode) spec(r).get("files").get(3)).put("id", "nt"),
        "$.workflow.specification.files[3].id: duplicate file id 'nt' (also "
            + "$.workflow.specification.files[1])");
    expect("1.6", r -> ((ArrayNode) task(r, 3).get("inputFiles")).set(1, "x"),
        "$.workflow.specification.tasks[3].inputFiles[1]: file 'x' is not in "
            + "$.workflow.specification.files");
    expect("1.5", r -> ((ArrayNode) task(r, 2).get("parents")).set(0, "nobody"),
        "$.workflow.specification.tasks[2].parents[0]: unknown parent task 'nobody' (not in "
            + "$.workflow.specification.tasks)");
    expect("1.5", r -> run(r, 1).put("id", "ghost"),
        "$.workflow.execution.tasks[1].id: task 'ghost' is not in $.workflow.specification.tasks");
    expect("1.5", r -> run(r, 1).put("id", "split_fasta_ID0000001"),
        "$.workflow.execution.tasks[1].id: duplicate execution entry for task "
            + "'split_fasta_ID0000001' (also $.workflow.execution.tasks[0])");
    expect("1.3", r -> ((ArrayNode) job(r, "tasks", 1).get("parents")).add("nobody"),
        "$.workflow.tasks[1].parents[1]: unknown parent task 'nobody' (not in $.workflow.tasks)");
    expect("1.1", r -> job(r, "jobs", 3).put("name", "blastall_ID0000002"),
        "$.workflow.jobs[3].name: duplicate task 'blastall_ID0000002' (also $.workflow.jobs[1].name)");
  }

  @Test
  void parentsAndChildrenMustAgree() {
    // the cat task drops one parent that still lists it as a child
    expect("1.5", r -> ((ArrayNode) task(r, 4).get("parents")).remove(0),
        "$.workflow.specification.tasks[1].children[0]: task 'blastall_ID0000002' lists child "
            + "'cat_blast_ID0000005' but 'cat_blast_ID0000005' does not list "
            + "'blastall_ID0000002' as a parent");
    // the split task forgets a child that names it as parent
    expect("1.4", r -> ((ArrayNode) job(r, "tasks", 0).get("children")).remove(2),
        "$.workflow.tasks[3].parents[0]: task 'blastall_ID0000004' lists parent "
            + "'split_fasta_ID0000001' but 'split_fasta_ID0000001' does not list "
            + "'blastall_ID0000004' as a child");
  }

  @Test
  void cyclesNameTheirTasks() {
    expect("1.3", r -> ((ArrayNode) job(r, "tasks", 0).get("parents")).add("cat_blast_ID0000005"),
        "$.workflow.tasks: the tasks form a cycle: blastall_ID0000002 -> cat_blast_ID0000005 "
            + "-> split_fasta_ID0000001 -> blastall_ID0000002");
    expect("1.6", r -> {
      ((ArrayNode) task(r, 1).get("parents")).add("blastall_ID0000002");
      ((ArrayNode) task(r, 1).get("children")).add("blastall_ID0000002");
    }, "$.workflow.specification.tasks: the tasks form a cycle: blastall_ID0000002 -> "
        + "blastall_ID0000002");
  }

  /**
   * Issue 22: published instances carry quirks in fields scheduling never reads (dates such as
   * {@code 03-23-21T06:04:36Z}, a missing executedAt, extra machine blocks and keys): each is a
   * warning naming its path, and the instance reads exactly as without the quirk.
   */
  @Test
  void quirksInUnusedFieldsAreWarningsNotRefusals() throws IOException {
    warns("1.5", r -> execution(r).put("executedAt", "2021-02-30T00:00:00Z"),
        "$.workflow.execution.executedAt: '2021-02-30T00:00:00Z' is not a valid date-time");
    warns("1.0", r -> ((ObjectNode) r.get("workflow")).put("executedAt", "03-23-21T06:04:36Z"),
        "$.workflow.executedAt: '03-23-21T06:04:36Z' is not an ISO 8601 date-time");
    warns("1.3", r -> ((ObjectNode) r.get("workflow")).remove("executedAt"),
        "$.workflow: missing required field 'executedAt'");
    warns("1.6", r -> r.put("createdAt", 20210101),
        "$.createdAt: must be a non-empty string, got 20210101");
    warns("1.6", r -> run(r, 0).put("executedAt", "20211301T000000Z"),
        "$.workflow.execution.tasks[0].executedAt: '20211301T000000Z' is not a valid date-time");
    warns("1.6", r -> r.put("description", 7), "$.description: must be a non-empty string, got 7");
    warns("1.5", r -> execution(r).put("makespanInSeconds", -3),
        "$.workflow.execution.makespanInSeconds: must be finite and >= 0, got -3");
    // Extra keys and odd machine blocks: ignored without a word.
    ObjectNode extra = WfInstanceWriter.toJson(SyntheticWorkflows.blast(3, 1_000), "1.6");
    execution(extra).putArray("machines").add("not-an-object").addObject().put("cpu", "?");
    extra.put("wfcommonsVendorKey", true);
    assertThat(read(extra).warnings()).isEmpty();
  }

  /** Fields that scheduling uses stay strict: runtimes, sizes, parents, file references. */
  @Test
  void fieldsSchedulingUsesStayStrict() {
    expect("1.6", r -> run(r, 0).put("runtimeInSeconds", "fast"),
        "$.workflow.execution.tasks[0].runtimeInSeconds: must be a number, got \"fast\"");
    expect("1.5", r -> ((ArrayNode) task(r, 1).get("parents")).add("nobody"),
        "$.workflow.specification.tasks[1].parents[1]: unknown parent task 'nobody' (not in "
            + "$.workflow.specification.tasks)");
  }

  /**
   * Writes blast(3) as {@code version}, gives it a quirk, and expects it read like the original
   * with exactly one warning ending in {@code message} and naming the ignored field.
   */
  private void warns(String version, Consumer<ObjectNode> quirk, String message)
      throws IOException {
    ObjectNode root = WfInstanceWriter.toJson(SyntheticWorkflows.blast(3, 1_000), version);
    WfWorkflow clean = read(root);
    quirk.accept(root);
    WfWorkflow read = read(root);
    assertThat(read.warnings()).singleElement().asString().contains(message)
        .contains("(ignored: scheduling does not use ");
    assertThat(shapes(WfJobs.jobs(read, "i", 1))).isEqualTo(shapes(WfJobs.jobs(clean, "i", 1)));
  }

  @Test
  void badJson() throws IOException {
    Path p = dir.resolve("broken.json");
    Files.writeString(p, "{\"name\":\"x\",\n\"name\":\"y\"}");
    assertThatThrownBy(() -> WfInstanceReader.read(p)).isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(p + ": invalid JSON at line 2, column ")
        .hasMessageContaining("Duplicate field 'name'");
    Files.writeString(p, "[1]");
    assertThatThrownBy(() -> WfInstanceReader.read(p))
        .hasMessage(p + ": $: a WfCommons instance is a JSON object, got array");
  }

  // ------------------------------------------------------------------ helpers

  private WfWorkflow read(ObjectNode root) throws IOException {
    Path p = dir.resolve("blast-" + System.nanoTime() + ".json");
    JSON.writeValue(p.toFile(), root);
    return WfInstanceReader.read(p);
  }

  /** Writes blast(3) as {@code version}, breaks it, and expects exactly {@code message}. */
  private void expect(String version, Consumer<ObjectNode> breakIt, String message) {
    ObjectNode root = WfInstanceWriter.toJson(SyntheticWorkflows.blast(3, 1_000), version);
    breakIt.accept(root);
    Path p = dir.resolve("blast-" + System.nanoTime() + ".json");
    try {
      JSON.writeValue(p.toFile(), root);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThatThrownBy(() -> WfInstanceReader.read(p)).as(message)
        .isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(p + ": " + message);
  }

  private static ObjectNode spec(ObjectNode root) {
    return (ObjectNode) root.get("workflow").get("specification");
  }

  private static ObjectNode execution(ObjectNode root) {
    return (ObjectNode) root.get("workflow").get("execution");
  }

  private static ObjectNode task(ObjectNode root, int i) {
    return (ObjectNode) spec(root).get("tasks").get(i);
  }

  private static ObjectNode run(ObjectNode root, int i) {
    return (ObjectNode) execution(root).get("tasks").get(i);
  }

  private static ObjectNode job(ObjectNode root, String list, int i) {
    return (ObjectNode) root.get("workflow").get(list).get(i);
  }
}
