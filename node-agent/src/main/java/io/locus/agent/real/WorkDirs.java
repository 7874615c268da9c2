package io.locus.agent.real;

import io.locus.schemas.PlaceTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The work directories of task runs under {@code work.dir}: a fresh
 * {@code <task>.<attempt>.<random>} directory with {@code out/} and {@code tmp/} per run, and the
 * last {@code work.keep} finished ones kept for inspection (older ones, including those of a
 * previous run of the agent, are deleted). Thread-safe.
 */
final class WorkDirs {
  private final Path root;
  private final int keep;
  private final Deque<Path> finished = new ArrayDeque<>();
  private final Map<String, Path> finishedByKey = new LinkedHashMap<>();

  WorkDirs(Path root, int keep) {
    this.root = root.toAbsolutePath();
    this.keep = keep;
    try {
      Files.createDirectories(this.root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the work directory " + this.root, e);
    }
    adoptOld();
  }

  /** Work dirs of a previous run count against the retention, oldest first. */
  private void adoptOld() {
    List<Path> old = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
      for (Path p : ds) {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          old.add(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    old.sort(Comparator.comparing(p -> p.toFile().lastModified()));
    synchronized (this) {
      old.forEach(this::retain);
    }
  }

  /** A fresh work directory with out/ and tmp/ for one task attempt. */
  Path create(PlaceTask task) throws IOException {
    Path wd = Files.createDirectory(root.resolve(safeName(task.getTaskId()) + "."
        + task.getAttempt() + "." + UUID.randomUUID().toString().substring(0, 8)));
    Files.createDirectory(wd.resolve("out"));
    Files.createDirectory(wd.resolve("tmp"));
    return wd;
  }

  /** A finished run's work directory joins the retained ones (null: it had none). */
  synchronized void finished(String key, Path wd) {
    if (wd != null) {
      finishedByKey.remove(key);
      finishedByKey.put(key, wd);
      retain(wd);
    }
  }

  /** The directory of a finished attempt, while it is kept. */
  synchronized Optional<Path> ofFinished(String key) {
    return Optional.ofNullable(finishedByKey.get(key));
  }

  private void retain(Path dir) {
    finished.addLast(dir);
    while (finished.size() > keep) {
      Path old = finished.removeFirst();
      finishedByKey.values().remove(old);
      DiskCache.deleteTree(old);
    }
  }

  private static String safeName(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 80; i++) {
      char c = s.charAt(i);
      b.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' ? c : '_');
    }
    return b.length() == 0 ? "task" : b.toString();
  }
}
