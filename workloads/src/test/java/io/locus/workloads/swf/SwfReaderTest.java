package io.locus.workloads.swf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.workloads.TraceFiles;
import io.locus.workloads.TraceFiles.Format;
import io.locus.workloads.TraceFiles.Options;
import io.locus.workloads.TraceFormatException;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An SWF excerpt written here, read with and without the file-set model; errors; determinism. */
class SwfReaderTest {
  @TempDir
  Path dir;

  /** A few lines in the archive's style: header, -1s, a cancelled job, preceding-job links. */
  private Path excerpt() throws IOException {
    Path p = dir.resolve("cluster.swf");
    SwfWriter.write(p, List.of("Version: 2.2", "Computer: Test cluster", "MaxNodes: 128",
        "UnixStartTime: 1000000000", "Note: written by SwfReaderTest"), List.of(
            SwfJob.of(1, 0, 100, 4, 1, 1, -1),
            SwfJob.of(2, 10, -1, 8, 1, 1, -1), // cancelled before it ran: skipped
            SwfJob.of(3, 20, 50, 2, 1, 1, 1), // follows job 1
            SwfJob.of(4, 15, 30, 1, 2, 5, 2), // follows a skipped job: link dropped
            SwfJob.of(5, 30, 0, 1, 2, 5, -1), // run time 0: skipped
            SwfJob.of(6, 40, 10, 16, 2, -1, 99))); // follows a job not in the file: dropped
    Files.writeString(p, Files.readString(p) + "\n; a comment between jobs\n"
        + "7   50 -1 12.5 1 -1 -1 1 -1 -1 1 3 1 2 1 1 -1 -1\n");
    return p;
  }

  @Test
  void readsTheExcerptWithoutTheFileModel() throws IOException {
    Workload w = TraceFiles.open(List.of(excerpt()), Format.SWF,
        new Options(0.5, List.of(), false, 1));
    List<TraceJob> jobs = w.toList();
    assertThat(jobs).extracting(TraceJob::jobId)
        .containsExactly("cluster/1", "cluster/4", "cluster/3", "cluster/6", "cluster/7");
    assertThat(jobs).extracting(TraceJob::arrival).containsExactly(0.0, 7.5, 10.0, 20.0, 25.0);
    assertThat(jobs).extracting(TraceJob::computeSeconds)
        .containsExactly(50.0, 15.0, 25.0, 5.0, 6.25);
    assertThat(jobs).allSatisfy(j -> assertThat(j.inputs()).isEmpty());
    assertThat(jobs.get(2).parents()).containsExactly("cluster/1");
    assertThat(jobs.get(1).parents()).isEmpty();
    assertThat(jobs.get(3).parents()).isEmpty();
    assertThat(jobs.get(0).attributes()).containsEntry("processors", "4")
        .containsEntry("user", "1").containsEntry("executable", "1").containsEntry("status", "1")
        .doesNotContainKey("queue");
    assertThat(w.description()).contains("5 jobs", "skipped 2 without a run time",
        "preceding-job links: 1 kept, 2 dropped", "file-set model off", "MaxNodes: 128",
        "UnixStartTime: 1000000000", "Computer: Test cluster").doesNotContain("a comment");
  }

  @Test
  void theFileModelGivesJobsOfAUserAndExecutableTheSameData() throws IOException {
    List<TraceJob> jobs = TraceFiles.open(List.of(excerpt()), Format.SWF,
        new Options(1, List.of(), true, 7)).toList();
    TraceJob j1 = jobs.get(0);
    TraceJob j3 = jobs.get(2);
    TraceJob j4 = jobs.get(1);
    TraceJob j6 = jobs.get(3);
    assertThat(j3.inputs()).isEqualTo(j1.inputs()); // same user 1, executable 1
    assertThat(j1.inputs().get(0).id()).isEqualTo("cluster/u1-x1-0");
    assertThat(j1.inputs().get(j1.inputs().size() - 1).id()).isEqualTo("cluster/u1-shared");
    assertThat(j4.inputs().get(0).id()).isEqualTo("cluster/u2-x5-0");
    assertThat(j6.inputs().get(0).id()).isEqualTo("cluster/u2-xnone-0");
    // user 2's jobs share the user's file and nothing else
    assertThat(j4.inputs().get(j4.inputs().size() - 1))
        .isEqualTo(j6.inputs().get(j6.inputs().size() - 1));
    assertThat(j4.inputs().get(j4.inputs().size() - 1).id()).isEqualTo("cluster/u2-shared");
    Set<String> ids4 = new HashSet<>(j4.inputs().stream().map(InputFile::id).toList());
    ids4.retainAll(j6.inputs().stream().map(InputFile::id).toList());
    assertThat(ids4).containsExactly("cluster/u2-shared");
    for (TraceJob j : jobs) {
      assertThat(j.inputs()).hasSizeBetween(SwfFileModel.K_MIN + 1, SwfFileModel.K_MAX + 1);
      assertThat(j.inputs()).allSatisfy(f -> assertThat(f.bytes())
          .isBetween(SwfFileModel.MIN_BYTES, SwfFileModel.MAX_BYTES));
    }
  }

  @Test
  void sameSeedSameJobsOtherSeedOtherFiles() throws IOException {
    Path p = excerpt();
    List<TraceJob> a = TraceFiles.open(List.of(p), Format.SWF, new Options(1, List.of(), true, 3))
        .toList();
    List<TraceJob> b = TraceFiles.open(List.of(p), Format.SWF, new Options(1, List.of(), true, 3))
        .toList();
    List<TraceJob> c = TraceFiles.open(List.of(p), Format.SWF, new Options(1, List.of(), true, 4))
        .toList();
    assertThat(b).isEqualTo(a);
    assertThat(c).extracting(TraceJob::jobId).isEqualTo(a.stream().map(TraceJob::jobId).toList());
    assertThat(c).extracting(TraceJob::inputs)
        .isNotEqualTo(a.stream().map(TraceJob::inputs).toList());
    // gzip is detected by name, and the instance name drops .swf.gz
    Path gz = dir.resolve("cluster.swf.gz");
    try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(p));
    }
    assertThat(TraceFiles.open(List.of(gz), Format.SWF, new Options(1, List.of(), true, 3))
        .toList()).isEqualTo(a);
  }

  @Test
  void theModelsDrawsCoverItsRanges() {
    SwfFileModel m = new SwfFileModel("x", 11);
    Set<Integer> ks = new HashSet<>();
    List<Long> sizes = new ArrayList<>();
    for (int user = 0; user < 40; user++) {
      for (int exe = 0; exe < 50; exe++) {
        List<InputFile> files = m.files(user, exe);
        ks.add(files.size() - 1);
        files.subList(0, files.size() - 1).forEach(f -> sizes.add(f.bytes()));
      }
    }
    assertThat(ks).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8);
    assertThat(sizes).allSatisfy(s -> assertThat(s).isBetween(10_000_000L, 1_000_000_000L));
    // log-uniform on [1e7, 1e9]: the median is 1e8
    List<Long> sorted = sizes.stream().sorted().toList();
    assertThat(sorted.get(sorted.size() / 2)).isBetween(80_000_000L, 125_000_000L);
    assertThat(m.files(3, 4)).isSameAs(m.files(3, 4));
  }

  @Test
  void malformedLinesNameFileAndLine() throws IOException {
    expect("; MaxNodes: 4\n1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1\n", 2,
        "an SWF job line has 18 fields, this one has 17");
    expect("\n\n1 0 -1 abc 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n", 3,
        "field 4 (run time) is not a number: 'abc'");
    expect("1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n1 5 -1 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n",
        2, "duplicate job number 1 (also line 1)");
    expect("1 0 -1 10 1 -1 -1 1 -1 -1 1 1.5 1 1 1 1 -1 -1\n", 1,
        "field 12 (user id) must be a whole number, got '1.5'");
    expect("1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 NaN\n", 1,
        "field 18 (think time) is not a number: 'NaN'");
  }

  @Test
  void aJobPrecedingItselfIsACycle() throws IOException {
    Path p = dir.resolve("loop.swf");
    SwfWriter.write(p, List.of(), List.of(SwfJob.of(1, 0, 5, 1, 1, 1, 2),
        SwfJob.of(2, 1, 5, 1, 1, 1, 1)));
    assertThatThrownBy(() -> TraceFiles.open(List.of(p), Format.SWF, Options.defaults()))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("form a cycle: loop/1 -> loop/2 -> loop/1");
  }

  private void expect(String content, long line, String message) throws IOException {
    Path p = dir.resolve("bad-" + System.nanoTime() + ".swf");
    Files.writeString(p, content);
    assertThatThrownBy(() -> TraceFiles.open(List.of(p), Format.SWF, Options.defaults()))
        .isInstanceOfSatisfying(TraceFormatException.class,
            e -> assertThat(e.line()).isEqualTo(line))
        .hasMessage(p + " line " + line + ": " + message);
  }
}
