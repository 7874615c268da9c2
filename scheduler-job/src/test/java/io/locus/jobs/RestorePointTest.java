package io.locus.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which retained checkpoint or savepoint a start restores (Flink's directory layout). */
class RestorePointTest {
  private static final String JOB_A = "0123456789abcdef0123456789abcdef";
  private static final String JOB_B = "fedcba9876543210fedcba9876543210";

  @TempDir Path dir;

  private Path metadata(String relative, long epochSecond) throws IOException {
    Path d = dir.resolve(relative);
    Files.createDirectories(d);
    Path meta = d.resolve("_metadata");
    Files.write(meta, new byte[] {1, 2, 3});
    Files.setLastModifiedTime(meta, FileTime.from(Instant.ofEpochSecond(epochSecond)));
    return d;
  }

  @Test
  void nothingRetainedMeansAFreshStart() throws IOException {
    Files.createDirectories(dir.resolve("checkpoints/" + JOB_A + "/chk-3")); // cut short: no _metadata
    RestorePoint p = RestorePoint.latest(dir.resolve("checkpoints"), dir.resolve("savepoints"));
    assertThat(p.isFresh()).isTrue();
    assertThat(p.description()).contains("fresh start");
    assertThat(RestorePoint.latest(null, null).isFresh()).isTrue();
  }

  @Test
  void theNewestCompleteCheckpointOfTheNewestJobWins() throws IOException {
    metadata("checkpoints/" + JOB_A + "/chk-40", 1_000);
    metadata("checkpoints/" + JOB_B + "/chk-2", 2_000);
    Path newest = metadata("checkpoints/" + JOB_B + "/chk-3", 2_001);
    Files.createDirectories(dir.resolve("checkpoints/" + JOB_B + "/chk-4")); // in progress
    Files.createDirectories(dir.resolve("checkpoints/" + JOB_B + "/shared"));
    RestorePoint p = RestorePoint.latest(dir.resolve("checkpoints"), dir.resolve("savepoints"));
    assertThat(p.path()).isEqualTo(newest);
    assertThat(p.claim()).isTrue();
    assertThat(p.description()).contains("checkpoint").contains("chk-3");
  }

  @Test
  void aTieGoesToTheHigherCheckpointNumber() throws IOException {
    metadata("checkpoints/" + JOB_A + "/chk-9", 5_000);
    Path ten = metadata("checkpoints/" + JOB_A + "/chk-10", 5_000);
    assertThat(RestorePoint.latest(dir.resolve("checkpoints"), null).path()).isEqualTo(ten);
  }

  @Test
  void aNewerSavepointWinsAndIsNeverClaimed() throws IOException {
    metadata("checkpoints/" + JOB_A + "/chk-7", 1_000);
    Path sp = metadata("savepoints/savepoint-012345-abcdef", 1_500);
    RestorePoint p = RestorePoint.latest(dir.resolve("checkpoints"), dir.resolve("savepoints"));
    assertThat(p.path()).isEqualTo(sp);
    assertThat(p.claim()).isFalse();
    assertThat(p.description()).contains("savepoint");
  }

  @Test
  void theSavepointOfAStopIsFoundByItsTimeWhenTheRunWentAwayWithItsApi() throws IOException {
    metadata("savepoints/savepoint-old", 1_000);
    Path fresh = metadata("savepoints/savepoint-new", 5_000);
    Files.createDirectories(dir.resolve("savepoints/savepoint-cut")); // no _metadata: incomplete
    assertThat(RestorePoint.newestSavepoint(dir.resolve("savepoints"), 4_000_000L))
        .isEqualTo(fresh);
    assertThat(RestorePoint.newestSavepoint(dir.resolve("savepoints"), 9_000_000L)).isNull();
    assertThat(RestorePoint.newestSavepoint(dir.resolve("missing"), 0)).isNull();
  }

  @Test
  void aGivenSavepointMustBeComplete() throws IOException {
    Path sp = metadata("elsewhere/savepoint-1", 1);
    assertThat(RestorePoint.savepoint(sp).path()).isEqualTo(sp);
    assertThat(RestorePoint.savepoint(sp.resolve("_metadata")).path()).isEqualTo(sp);
    assertThat(RestorePoint.savepoint(sp).claim()).isFalse();
    assertThatThrownBy(() -> RestorePoint.savepoint(dir.resolve("nope")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no savepoint at");
  }
}
