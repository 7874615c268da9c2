package io.locus.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.cli.LocusCli;
import io.locus.workloads.TraceJob;
import io.locus.workloads.TraceWriter;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code locus storage create}: a workload's input files, where real agents read them. */
class ReplayStorageTest {
  private static TraceJob job(String id, List<InputFile> in, List<InputFile> out) {
    return new TraceJob(id, null, 0, in, 0, 0, Map.of(), null, List.of(), out, null, List.of());
  }

  /** Reads raw (and a file on its own location); writes mid, which a second job reads. */
  private static Workload workflow() {
    return Workload.of("wf", "test", List.of(
        job("wf/a", List.of(InputFile.of("wf/raw", 200_000),
            new InputFile("elsewhere", 5, 0, "file:///data/elsewhere", null)),
            List.of(InputFile.of("wf/mid", 7))),
        job("wf/b", List.of(InputFile.of("wf/mid", 7), InputFile.of("plain id", 3)), List.of())));
  }

  @Test
  void onlyInputsNoJobCreatesAndWithoutALocationAreWritten() {
    StorageFiles.Plan plan = StorageFiles.plan(workflow());
    assertThat(plan.files()).containsExactly(Map.entry("plain id", 3L), Map.entry("wf/raw", 200_000L));
    assertThat(plan.outputs()).isEqualTo(1);
    assertThat(plan.ownLocation()).isEqualTo(1);
    assertThat(plan.bytes()).isEqualTo(200_003);
    assertThatThrownBy(() -> StorageFiles.plan(Workload.of("bad", "", List.of(
        job("x", List.of(InputFile.of("f", 1)), List.of()),
        job("y", List.of(InputFile.of("f", 2)), List.of())))))
        .hasMessageContaining("file f is read as 1 bytes and as 2 bytes (job y)");
  }

  @Test
  void filesLandWhereAnAgentReadsThemDeterministicallyAndOnce(@TempDir Path dir)
      throws Exception {
    StorageFiles.Plan plan = StorageFiles.plan(workflow());
    Path root = dir.resolve("storage");
    StorageFiles.Result first = StorageFiles.write(plan, root, 1_000_000);
    assertThat(first.written()).isEqualTo(2);
    assertThat(first.bytesWritten()).isEqualTo(200_003);
    // the agent's mapping: the id as one encoded segment under the root; '/' makes a directory
    assertThat(root.resolve("wf/raw")).hasSize(200_000);
    assertThat(root.resolve("plain id")).hasSize(3);
    assertThat(StorageFiles.pathOf(root, "wf/raw")).isEqualTo(root.toAbsolutePath().resolve("wf/raw"));
    assertThatThrownBy(() -> StorageFiles.pathOf(root, "../escape"))
        .hasMessageContaining("../escape");

    // the same content on another root; a second run writes nothing
    Path other = dir.resolve("other");
    StorageFiles.write(plan, other, 1_000_000);
    assertThat(Files.readAllBytes(other.resolve("wf/raw")))
        .isEqualTo(Files.readAllBytes(root.resolve("wf/raw")));
    assertThat(Files.readAllBytes(root.resolve("wf/raw")))
        .isNotEqualTo(new byte[200_000]); // not zeros
    StorageFiles.Result again = StorageFiles.write(plan, root, 1_000_000);
    assertThat(again.written()).isZero();
    assertThat(again.alreadyThere()).isEqualTo(2);

    // a damaged file (wrong content or size) is written again
    Files.write(root.resolve("plain id"), new byte[] {1, 2, 3});
    assertThat(StorageFiles.write(plan, root, 1_000_000).written()).isEqualTo(1);
    assertThat(Files.readAllBytes(root.resolve("plain id")))
        .isEqualTo(Files.readAllBytes(other.resolve("plain id")));
    try (var s = Files.list(root.resolve("wf"))) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactly("raw"); // no temp left
    }
  }

  @Test
  void moreThanMaxBytesIsRefusedBeforeAnythingIsWritten(@TempDir Path dir) throws Exception {
    Path trace = dir.resolve("wf.jsonl");
    // (outputs in a trace file come with the formats work; this one has none)
    TraceWriter.write(trace, Workload.of("wf", "", List.of(
        job("x", List.of(InputFile.of("wf/raw", 200_000), InputFile.of("plain id", 3)),
            List.of()))));
    Path root = dir.resolve("storage");
    CommandLine cl = LocusCli.commandLine();
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute("storage", "create", "--trace", trace.toString(), "--storage-root",
        root.toString(), "--max-bytes", "100000")).isEqualTo(2);
    assertThat(err.toString()).contains("2 missing input files take 200.0 kB (200003 bytes),"
        + " more than --max-bytes 100000; nothing was written");
    assertThat(root).doesNotExist();

    assertThat(cl.execute("storage", "create", "--trace", trace.toString(), "--storage-root",
        root.toString())).isZero();
    assertThat(out.toString()).contains("wf: 2 input files (200003 bytes)")
        .contains("wrote 2 (200003 bytes), 0 already there");
    assertThat(root.resolve("wf/raw")).hasSize(200_000);
  }
}
