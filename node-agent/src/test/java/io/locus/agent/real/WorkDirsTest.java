package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work directories: a clean one leaving the retention is renamed for the next run (the same inode),
 * and the next run finds exactly what a fresh one holds; anything else is deleted as before.
 */
class WorkDirsTest {
  @TempDir
  Path tmp;

  private static PlaceTask task(String id) {
    return PlaceTask.newBuilder().setTaskId(id).setJobId("j").setAttempt(0)
        .setInputs(List.of())
        .setReason(PlacementReason.newBuilder().setPolicy("TEST").build()).build();
  }

  /** A run's leftovers as the process leaves them: its stdout and stderr files. */
  private static Path run(WorkDirs w, String id, String stdout) throws IOException {
    Path wd = w.create(task(id));
    Files.writeString(wd.resolve("stdout"), stdout);
    Files.writeString(wd.resolve("stderr"), "");
    return wd;
  }

  private static List<String> listing(Path wd) throws IOException {
    try (Stream<Path> s = Files.walk(wd)) {
      return s.map(p -> wd.relativize(p).toString() + (Files.isDirectory(p) ? "/" : "")
          + (Files.isRegularFile(p) ? ":" + p.toFile().length() : "")).sorted().toList();
    }
  }

  private static Object inode(Path p) throws IOException {
    return Files.getAttribute(p, "unix:ino");
  }

  @Test
  void aCleanDirectoryIsRenamedForTheNextRunAndLooksFresh() throws IOException {
    WorkDirs w = new WorkDirs(tmp.resolve("work"), 0, true);
    Path fresh = w.create(task("t0"));
    List<String> freshListing = listing(fresh);
    assertThat(freshListing).containsExactly("/", "out/", "tmp/");

    Path a = run(w, "t1", "a checksum\n");
    Object ino = inode(a);
    w.finished("t1#0", a);
    assertThat(w.ofFinished("t1#0")).isEmpty(); // keep 0: not kept for inspection

    Path b = w.create(task("t2"));
    assertThat(a).doesNotExist();
    assertThat(b.getFileName().toString()).startsWith("t2.0.");
    assertThat(inode(b)).isEqualTo(ino);
    assertThat(w.recycled()).isEqualTo(1);
    // What the run sees once its outputs are opened: the same as in a fresh directory.
    assertThat(listing(b)).containsExactly("/", "out/", "stderr:0", "stdout:0", "tmp/");
    Files.writeString(fresh.resolve("stdout"), "");
    Files.writeString(fresh.resolve("stderr"), "");
    assertThat(listing(fresh)).isEqualTo(listing(b));
  }

  @Test
  void aDirectoryWithAnythingElseIsDeletedNotRecycled() throws IOException {
    WorkDirs w = new WorkDirs(tmp.resolve("work"), 0, true);
    Path a = run(w, "t1", "");
    Files.writeString(a.resolve("out").resolve("result"), "x");
    w.finished("t1#0", a);
    assertThat(a).doesNotExist();

    Path b = run(w, "t2", "");
    Files.writeString(b.resolve("core"), "x");
    w.finished("t2#0", b);
    assertThat(b).doesNotExist();

    Path c = run(w, "t3", "");
    Files.delete(c.resolve("tmp"));
    Files.createSymbolicLink(c.resolve("tmp"), tmp);
    w.finished("t3#0", c);
    assertThat(c).doesNotExist();
    assertThat(tmp).exists();

    Path d = w.create(task("t4"));
    assertThat(w.recycled()).isZero();
    assertThat(listing(d)).containsExactly("/", "out/", "tmp/");
  }

  @Test
  void keptDirectoriesStayAsTheyAreUntilTheyLeaveTheRetention() throws IOException {
    WorkDirs w = new WorkDirs(tmp.resolve("work"), 1, true);
    Path a = run(w, "t1", "one\n");
    w.finished("t1#0", a);
    Path b = w.create(task("t2")); // a is kept: b is new
    assertThat(w.recycled()).isZero();
    assertThat(Files.readString(a.resolve("stdout"))).isEqualTo("one\n");
    Files.writeString(b.resolve("stdout"), "two\n");
    w.finished("t2#0", b); // a leaves the retention, clean: a spare
    assertThat(w.ofFinished("t1#0")).isEmpty();
    assertThat(w.ofFinished("t2#0")).contains(b);
    Path c = w.create(task("t3"));
    assertThat(w.recycled()).isEqualTo(1);
    assertThat(Files.readString(c.resolve("stdout"))).isEmpty();
    assertThat(Files.readString(b.resolve("stdout"))).isEqualTo("two\n");
  }

  @Test
  void withoutRecyclingEveryDirectoryIsDeleted() throws IOException {
    WorkDirs w = new WorkDirs(tmp.resolve("work"), 0, false);
    Path a = run(w, "t1", "");
    Object ino = inode(a);
    w.finished("t1#0", a);
    assertThat(a).doesNotExist();
    Path b = w.create(task("t2"));
    assertThat(w.recycled()).isZero();
    assertThat(listing(b)).containsExactly("/", "out/", "tmp/");
    assertThat(ino).isNotNull();
  }
}
