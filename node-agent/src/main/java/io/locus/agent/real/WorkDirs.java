package io.locus.agent.real;

import io.locus.schemas.PlaceTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The work directories of task runs under {@code work.dir}: a fresh
 * {@code <task>.<attempt>.<random>} directory with {@code out/} and {@code tmp/} per run, and the
 * last {@code work.keep} finished ones kept for inspection (older ones, including those of a
 * previous run of the agent, are deleted). Thread-safe.
 *
 * <p><b>Recycling.</b> Creating three directories and later deleting them and the two output files
 * cost more agent CPU than starting a short task (profiled: mkdir, creat, rmdir, unlink). So a
 * directory that leaves the retention <em>clean</em> — nothing in it but an empty {@code out/}, an
 * empty {@code tmp/}, {@code stdout} and {@code stderr} (emptied here) — is not deleted but kept
 * as a spare (at most {@link #MAX_SPARES}), and the next run's directory is that spare renamed to
 * the run's name with its time stamp refreshed: one rename instead of creating it. The run cannot
 * tell: it finds exactly what a fresh directory holds once its stdout and stderr are opened (empty
 * {@code out/} and {@code tmp/}, empty {@code stdout} and {@code stderr}); only inode numbers
 * differ. Anything else in a directory (a file, a link, a non-empty {@code out/}) gets it deleted
 * as before. One thing can tell: a process a run left behind (a background child outliving it)
 * still has the directory as its working directory and would write into a later run's; with such
 * templates set {@code work.recycle: false}.
 */
final class WorkDirs {
  static final int MAX_SPARES = 64;
  private static final Set<String> CLEAN_NAMES = Set.of("out", "tmp", "stdout", "stderr");

  private final Path root;
  private final int keep;
  private final boolean recycle;
  private final Deque<Path> finished = new ArrayDeque<>();
  private final Map<String, Path> finishedByKey = new LinkedHashMap<>();
  /** Clean directories out of the retention, waiting to be renamed for a new run. */
  private final Deque<Path> spares = new ArrayDeque<>();
  private long recycled;

  WorkDirs(Path root, int keep, boolean recycle) {
    this.root = root.toAbsolutePath();
    this.keep = keep;
    this.recycle = recycle;
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

  /** A fresh (or recycled, see above) work directory with out/ and tmp/ for one task attempt. */
  Path create(PlaceTask task) throws IOException {
    Path wd = root.resolve(safeName(task.getTaskId()) + "." + task.getAttempt() + "."
        + UUID.randomUUID().toString().substring(0, 8));
    Path spare;
    synchronized (this) {
      spare = spares.pollFirst();
    }
    if (spare != null) {
      try {
        // No REPLACE_EXISTING: never onto an existing name, as createDirectory.
        Files.move(spare, wd);
        Files.setLastModifiedTime(wd, FileTime.fromMillis(System.currentTimeMillis()));
        synchronized (this) {
          recycled++;
        }
        return wd;
      } catch (IOException e) {
        DiskCache.deleteTree(spare);
        DiskCache.deleteTree(wd);
      }
    }
    Files.createDirectory(wd);
    Files.createDirectory(wd.resolve("out"));
    Files.createDirectory(wd.resolve("tmp"));
    return wd;
  }

  /** How many runs got a recycled directory. */
  synchronized long recycled() {
    return recycled;
  }

  /** A finished run's work directory joins the retained ones (null: it had none). */
  synchronized void finished(String key, Path wd) {
    if (wd != null) {
      finishedByKey.remove(key);
      finishedByKey.put(key, wd);
      retain(wd);
    }
  }

  /**
   * A cancelled run's partial outputs ({@code out/}) and scratch files ({@code tmp/}) are removed
   * once its process is gone: nobody will use them, and a cancel is the user saying so. Its
   * stdout and stderr stay, for inspection like any ended run's. Best effort: an error leaves
   * the rest to the retention.
   */
  static void clearPartial(Path wd) {
    for (String sub : List.of("out", "tmp")) {
      Path d = wd.resolve(sub);
      if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
        for (Path p : ds) {
          DiskCache.deleteTree(p);
        }
      } catch (IOException e) {
        // left to the retention, which deletes a directory that is not clean
      }
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
      if (recycle && spares.size() < MAX_SPARES && clean(old)) {
        spares.addLast(old);
      } else {
        DiskCache.deleteTree(old);
      }
    }
  }

  /**
   * Whether {@code dir} holds only an empty out/ and tmp/ (directories, not links) and stdout and
   * stderr (regular files, emptied here); anything else, or any error, says no.
   */
  private static boolean clean(Path dir) {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      int dirs = 0;
      List<Path> outputs = new ArrayList<>(2);
      for (Path p : ds) {
        String name = p.getFileName().toString();
        if (!CLEAN_NAMES.contains(name)) {
          return false;
        }
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
        if (name.equals("out") || name.equals("tmp")) {
          if (!a.isDirectory() || !emptyDir(p)) {
            return false;
          }
          dirs++;
        } else if (!a.isRegularFile()) {
          return false;
        } else if (a.size() > 0) {
          outputs.add(p);
        }
      }
      if (dirs != 2) {
        return false;
      }
      for (Path p : outputs) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS)) {
          ch.truncate(0);
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static boolean emptyDir(Path dir) throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      return !ds.iterator().hasNext();
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
