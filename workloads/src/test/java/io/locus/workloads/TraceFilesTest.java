package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.schemas.limits.Limits;
import io.locus.workloads.TraceFiles.Format;
import io.locus.workloads.TraceFiles.Options;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfInstanceReader;
import io.locus.workloads.wf.WfInstanceWriter;
import io.locus.workloads.wf.WfJobs;
import io.locus.workloads.wf.WfWorkflow;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TraceFiles#open}: every format, several files, prefixes, time scale, pools, DAG check. */
class TraceFilesTest {
  @TempDir
  Path dir;

  @Test
  void severalWfCommonsInstancesBecomeOneWorkload() throws IOException {
    WfWorkflow blast = SyntheticWorkflows.blast(4, 5_000_000_000L);
    WfWorkflow genome = SyntheticWorkflows.genome(1, 2, 2);
    Path a = dir.resolve("blast-001.json");
    WfInstanceWriter.write(blast, "1.4", a);
    Path plain = dir.resolve("tmp.json");
    WfInstanceWriter.write(genome, "1.6", plain);
    Path b = dir.resolve("genome.json.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(b))) {
      out.write(Files.readAllBytes(plain));
    }
    Workload w = TraceFiles.open(List.of(a, b), Format.WFCOMMONS,
        new Options(0.5, List.of("p1", "p2"), true, 1));
    List<TraceJob> jobs = w.toList();
    assertThat(w.name()).isEqualTo("blast-001+genome");
    assertThat(w.size()).isEqualTo(blast.tasks().size() + genome.tasks().size());
    assertThat(w.description()).contains("WfCommons instance blast-001 (blast-4): 6 tasks",
        "WfCommons instance genome (genome-1x2x2)", "times x 0.5");
    // file order on equal arrivals (all 0), each instance in its own topological order
    List<TraceJob> expected = new java.util.ArrayList<>();
    // (read back: 1.6 has no task "type", so the attributes differ from the synthetic original)
    WfJobs.jobs(WfInstanceReader.read(a), "blast-001", 0.5)
        .forEach(j -> expected.add(j.withPool("p1")));
    WfJobs.jobs(WfInstanceReader.read(plain), "genome", 0.5)
        .forEach(j -> expected.add(j.withPool("p2")));
    assertThat(jobs).isEqualTo(expected);
    assertThat(jobs.get(1).jobId()).isEqualTo("blast-001/blastall_ID0000002");
    assertThat(jobs.get(1).inputs()).contains(InputFile.of("blast-001/nt", 5_000_000_000L));
    assertThat(jobs.get(1).parents()).containsExactly("blast-001/split_fasta_ID0000001");
    assertThat(jobs.get(1).computeSeconds()).isEqualTo(15.0);
    // instances never share files
    Set<String> blastFiles = new HashSet<>();
    jobs.stream().filter(j -> j.jobId().startsWith("blast-001/"))
        .forEach(j -> j.inputs().forEach(f -> blastFiles.add(f.id())));
    assertThat(blastFiles).allMatch(f -> f.startsWith("blast-001/"));
  }

  /** Issue 24: a whole workflow goes to one queue, each instance to the next queue in turn. */
  @Test
  void eachWfCommonsInstanceGoesWholeToOneQueue() throws IOException {
    List<Path> files = new java.util.ArrayList<>();
    for (String n : List.of("a", "b", "c")) {
      Path f = dir.resolve(n + ".json");
      WfInstanceWriter.write(SyntheticWorkflows.blast(2, 1000), "1.5", f);
      files.add(f);
    }
    List<TraceJob> jobs = TraceFiles.open(files, Format.WFCOMMONS,
        new Options(1, List.of(), true, 1, null, List.of("team-x", "team-y"))).toList();
    assertThat(jobs).hasSize(12).allSatisfy(j -> assertThat(j.queue()).isEqualTo(
        j.jobId().startsWith("b/") ? "team-y" : "team-x"));
    // without queues a WfCommons job names none (the consumer's --queue applies)
    assertThat(TraceFiles.open(files, Format.WFCOMMONS, Options.defaults()).toList())
        .allSatisfy(j -> assertThat(j.queue()).isNull());
    assertThatThrownBy(() -> new Options(1, List.of(), true, 1, null, List.of("bad queue")))
        .hasMessage("queue name 'bad queue' has a character outside [A-Za-z0-9_-] at index 3");
  }

  @Test
  void aWfCommonsWorkloadSurvivesTheLocusTraceFormat() throws IOException {
    Path a = dir.resolve("genome.json");
    WfInstanceWriter.write(SyntheticWorkflows.genome(2, 2, 2), "1.5", a);
    Workload w = TraceFiles.open(List.of(a), Format.WFCOMMONS, Options.defaults());
    Path trace = dir.resolve("genome.jsonl.gz");
    TraceWriter.write(trace, w);
    Workload back = TraceFiles.open(List.of(trace), Format.LOCUS, Options.defaults());
    assertThat(back.toList()).isEqualTo(w.toList());
    assertThat(back.toList()).anySatisfy(j -> assertThat(j.parents()).hasSize(2));
  }

  @Test
  void aSingleWfCommonsFileIsPrefixedAndKeepsNoPool() throws IOException {
    Path a = dir.resolve("b.json");
    WfInstanceWriter.write(SyntheticWorkflows.blast(2, 10), "1.0", a);
    List<TraceJob> jobs = TraceFiles.open(List.of(a), Format.WFCOMMONS, Options.defaults())
        .toList();
    assertThat(jobs).allSatisfy(j -> {
      assertThat(j.jobId()).startsWith("b/");
      assertThat(j.pool()).isNull();
    });
    List<TraceJob> one = TraceFiles.open(List.of(a), Format.WFCOMMONS,
        new Options(1, List.of("only"), true, 1)).toList();
    assertThat(one).allSatisfy(j -> assertThat(j.pool()).isEqualTo("only"));
  }

  @Test
  void locusTracesMergeByArrivalWithPrefixScaleAndPools() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.jsonl.gz");
    TraceWriter.write(a, Workload.of("a", "", List.of(
        job("x", 0, List.of()), job("y", 2, List.of("x")), job("z", 4, List.of()))));
    TraceWriter.write(b, Workload.of("b", "", List.of(
        job("x", 1, List.of()), job("y", 2, List.of()), job("w", 3, List.of("y")))));
    Workload w = TraceFiles.open(List.of(a, b), Format.LOCUS,
        new Options(2, List.of("p", "q", "r"), true, 1));
    assertThat(w.size()).isEqualTo(6);
    List<TraceJob> jobs = w.toList();
    assertThat(jobs).extracting(TraceJob::jobId)
        .containsExactly("a/x", "b/x", "a/y", "b/y", "b/w", "a/z");
    assertThat(jobs).extracting(TraceJob::arrival).containsExactly(0.0, 2.0, 4.0, 4.0, 6.0, 8.0);
    assertThat(jobs).extracting(TraceJob::pool).containsExactly("p", "q", "p", "q", "q", "p");
    TraceJob ay = jobs.get(2);
    assertThat(ay.parents()).containsExactly("a/x");
    assertThat(ay.computeSeconds()).isEqualTo(3.0);
    assertThat(ay.inputs()).containsExactly(new InputFile("a/in-y", 100, 0.5, "sn-1", null));
    assertThat(ay.outputs()).containsExactly(InputFile.of("a/out-y", 50));
    assertThat(ay.template()).isEqualTo("t");
    assertThat(ay.args()).containsExactly("--y");
    // passes are repeatable (the files are streamed again)
    assertThat(w.toList()).isEqualTo(jobs);
  }

  /** Issue 22: within the limit in its file, over it once several traces prefix their ids. */
  @Test
  void aFileIdThatThePrefixMakesTooLongIsRefused() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.jsonl");
    String id = "f".repeat(Limits.MAX_FILE_ID_BYTES - 2);
    TraceWriter.write(a, Workload.of("a", "", List.of(
        new TraceJob("x", 0, List.of(InputFile.of(id, 1)), 1))));
    TraceWriter.write(b, Workload.of("b", "", List.of(job("x", 1, List.of()))));
    assertThat(TraceFiles.open(List.of(a), Format.LOCUS, Options.defaults()).toList()).hasSize(1);
    assertThatThrownBy(() -> TraceFiles.open(List.of(a, b), Format.LOCUS, Options.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("file id 'a/fff")
        .hasMessageEndingWith("' is 257 bytes as a file name, more than the limit of 255 once"
            + " prefixed with 'a/' (several traces replayed at once)");
  }

  @Test
  void aSingleLocusTraceIsUnchanged() throws IOException {
    Path a = dir.resolve("a.jsonl");
    Workload original = Workload.of("mine", "d", List.of(job("x", 0, List.of()),
        job("y", 2, List.of("x"))));
    TraceWriter.write(a, original);
    Workload w = TraceFiles.open(List.of(a), Format.LOCUS, Options.defaults());
    assertThat(w.name()).isEqualTo("mine");
    assertThat(w.toList()).isEqualTo(original.toList());
    Workload scaled = TraceFiles.open(List.of(a), Format.LOCUS,
        new Options(0.25, List.of(), true, 1));
    assertThat(scaled.toList()).extracting(TraceJob::jobId).containsExactly("x", "y");
    assertThat(scaled.toList()).extracting(TraceJob::arrival).containsExactly(0.0, 0.5);
  }

  @Test
  void theWholeWorkloadsDagIsChecked() throws IOException {
    Path a = dir.resolve("a.jsonl");
    TraceWriter.write(a, Workload.of("a", "", List.of(job("x", 0, List.of("ghost")))));
    assertThatThrownBy(() -> TraceFiles.open(List.of(a), Format.LOCUS, Options.defaults()))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(a + ": job 'x' names parent 'ghost', which is not a job of the workload");
    Path c = dir.resolve("c.jsonl");
    TraceWriter.write(c, Workload.of("c", "", List.of(job("x", 0, List.of("z")),
        job("y", 1, List.of("x")), job("z", 2, List.of("y")), job("free", 3, List.of()))));
    assertThatThrownBy(() -> TraceFiles.open(List.of(a, c), Format.LOCUS, Options.defaults()))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("job 'a/x' names parent 'a/ghost'");
    assertThatThrownBy(() -> TraceFiles.open(List.of(c), Format.LOCUS, Options.defaults()))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(c + ": the jobs' parents form a cycle: x -> y -> z -> x");
  }

  @Test
  void instanceNames() {
    assertThat(TraceFiles.instanceName(Path.of("/t/blast-001.json.gz"))).isEqualTo("blast-001");
    assertThat(TraceFiles.instanceName(Path.of("x.swf"))).isEqualTo("x");
    assertThat(TraceFiles.instanceName(Path.of("log.swf.gz"))).isEqualTo("log");
    assertThat(TraceFiles.instanceName(Path.of("run.jsonl"))).isEqualTo("run");
    assertThat(TraceFiles.instanceName(Path.of("plain"))).isEqualTo("plain");
    assertThatThrownBy(() -> TraceFiles.open(List.of(Path.of("d1/a.json"), Path.of("d2/a.json")),
        Format.WFCOMMONS, Options.defaults())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two trace files have the instance name 'a'");
    assertThatThrownBy(() -> TraceFiles.open(List.of(), Format.SWF, Options.defaults()))
        .hasMessageContaining("no trace file");
  }

  private static TraceJob job(String id, double arrival, List<String> parents) {
    return new TraceJob(id, null, arrival, List.of(new InputFile("in-" + id, 100, 0.25, "sn-1",
        null)), 1.5, 0, Map.of(), null, parents, List.of(InputFile.of("out-" + id, 50)), "t",
        List.of("--" + id));
  }
}
