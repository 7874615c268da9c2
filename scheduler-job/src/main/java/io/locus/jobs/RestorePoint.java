package io.locus.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a scheduler job starts from: the newest completed checkpoint or savepoint retained in the
 * state directory, a savepoint the operator names, or nothing (a fresh start).
 *
 * <p>Flink writes a retained checkpoint as {@code <checkpoints>/<job id>/chk-<n>/_metadata} and a
 * savepoint as {@code <savepoints>/savepoint-<job>-<id>/_metadata}; the {@code _metadata} file is
 * written last, so a directory without one (a checkpoint cut short by {@code kill -9}) is not a
 * candidate. Each run of {@code locus run} has a new job id, so the newest state is the candidate
 * whose {@code _metadata} was written last; a tie (same file time) goes to the higher checkpoint
 * number.
 *
 * @param path the {@code _metadata}'s directory to restore from, or null for a fresh start
 * @param claim whether the new job may take ownership of it (delete it once subsumed): only for
 *     retained checkpoints Locus found itself, never for a savepoint the operator gave
 * @param description what it is, for the start-up line
 */
public record RestorePoint(Path path, boolean claim, String description) {
  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");
  private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{32}");
  private static final Pattern SAVEPOINT = Pattern.compile("savepoint-.+");

  public static RestorePoint fresh(String why) {
    return new RestorePoint(null, false, why);
  }

  public boolean isFresh() {
    return path == null;
  }

  /** When this checkpoint or savepoint was completed (its {@code _metadata} written); empty if fresh. */
  public java.util.Optional<java.time.Instant> writtenAt() {
    return path == null ? java.util.Optional.empty()
        : complete(path).map(java.nio.file.attribute.FileTime::toInstant);
  }

  /** A savepoint (or retained checkpoint) the operator named: it must exist and be complete. */
  public static RestorePoint savepoint(Path given) {
    Path dir = given.toAbsolutePath().normalize();
    if (dir.getFileName() != null && dir.getFileName().toString().equals("_metadata")) {
      dir = dir.getParent();
    }
    if (!Files.isRegularFile(dir.resolve("_metadata"))) {
      throw new IllegalArgumentException("--from-savepoint: no savepoint at " + given
          + " (expected a directory with a _metadata file)");
    }
    return new RestorePoint(dir, false, "savepoint " + dir);
  }

  /**
   * The newest complete checkpoint under {@code checkpointsDir} or savepoint under
   * {@code savepointsDir} (either may be null or missing), or a fresh start if there is none.
   */
  public static RestorePoint latest(Path checkpointsDir, Path savepointsDir) {
    List<Candidate> all = new ArrayList<>();
    all.addAll(checkpoints(checkpointsDir));
    all.addAll(savepoints(savepointsDir));
    return all.stream()
        .max(Comparator.comparing(Candidate::written).thenComparingLong(Candidate::number))
        .map(c -> new RestorePoint(c.dir(), c.checkpoint(),
            (c.checkpoint() ? "latest retained checkpoint " : "latest savepoint ") + c.dir()))
        .orElseGet(() -> fresh("no checkpoint or savepoint in "
            + (checkpointsDir == null ? "-" : checkpointsDir)
            + (savepointsDir == null ? "" : " or " + savepointsDir) + ": a fresh start"));
  }

  /**
   * The newest complete savepoint in {@code savepointsDir} written at or after {@code sinceMs}
   * (wall clock of this host; the savepoint's files are local), or null.
   */
  public static Path newestSavepoint(Path savepointsDir, long sinceMs) {
    return savepoints(savepointsDir).stream()
        .filter(c -> c.written().toMillis() >= sinceMs - 1000) // file times may be second-rounded
        .max(Comparator.comparing(Candidate::written))
        .map(Candidate::dir)
        .orElse(null);
  }

  private record Candidate(Path dir, FileTime written, long number, boolean checkpoint) {}

  private static List<Candidate> checkpoints(Path root) {
    List<Candidate> out = new ArrayList<>();
    for (Path job : children(root)) {
      if (!JOB_ID.matcher(job.getFileName().toString()).matches()) {
        continue;
      }
      for (Path chk : children(job)) {
        Matcher m = CHECKPOINT.matcher(chk.getFileName().toString());
        if (m.matches()) {
          complete(chk).ifPresent(t -> out.add(
              new Candidate(chk, t, Long.parseLong(m.group(1)), true)));
        }
      }
    }
    return out;
  }

  private static List<Candidate> savepoints(Path root) {
    List<Candidate> out = new ArrayList<>();
    for (Path sp : children(root)) {
      if (SAVEPOINT.matcher(sp.getFileName().toString()).matches()) {
        complete(sp).ifPresent(t -> out.add(new Candidate(sp, t, -1, false)));
      }
    }
    return out;
  }

  /** The write time of a non-empty {@code _metadata}, if the directory has one. */
  private static Optional<FileTime> complete(Path dir) {
    Path meta = dir.resolve("_metadata");
    try {
      if (Files.isRegularFile(meta) && Files.size(meta) > 0) {
        return Optional.of(Files.getLastModifiedTime(meta));
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // removed while we looked (Flink subsumed it): not a candidate
    }
  }

  private static List<Path> children(Path dir) {
    if (dir == null || !Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}
