package io.locus.cli.replay;

import io.locus.agent.real.StorageLocations;
import io.locus.core.model.InputFile;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The input files a workload reads, written into a storage root so that real agents find them:
 * each at its declared size, with content that depends only on its id (the same on every run and
 * machine). Files a job of the workload creates (its outputs) are not written: tasks make them.
 * Inputs with a location of their own are not written either: agents read those from there.
 *
 * <p>The path of a file is the one a real agent reads for an input without a location: the
 * storage root joined with the file id as one percent-encoded segment, through the agent's own
 * {@link StorageLocations}; Java decodes {@code %2F} back into a separator, so an id
 * {@code montage/f1} is the file {@code ROOT/montage/f1}.
 */
public final class StorageFiles {
  private static final int BLOCK = 64 * 1024;

  /**
   * What a workload needs in storage.
   *
   * @param files file id → size, sorted by id
   * @param ownLocation inputs skipped because they name a location of their own
   * @param outputs distinct files created by the workload's jobs (not written)
   */
  public record Plan(Map<String, Long> files, long ownLocation, long outputs) {
    public long bytes() {
      return files.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** What {@link #write} did. */
  public record Result(long written, long bytesWritten, long alreadyThere) {}

  private StorageFiles() {}

  /**
   * The files to write for {@code w}.
   *
   * @throws IllegalArgumentException when one file id is read with two different sizes
   */
  public static Plan plan(Workload w) {
    Map<String, Long> inputs = new TreeMap<>();
    Set<String> outputs = new HashSet<>();
    Set<String> located = new HashSet<>();
    for (TraceJob j : w) {
      for (InputFile o : j.outputs()) {
        outputs.add(o.id());
      }
      for (InputFile u : j.inputs()) {
        if (u.location() != null) {
          located.add(u.id());
          continue;
        }
        Long before = inputs.putIfAbsent(u.id(), u.bytes());
        if (before != null && before != u.bytes()) {
          throw new IllegalArgumentException(w.name() + ": file " + u.id() + " is read as "
              + before + " bytes and as " + u.bytes() + " bytes (job " + j.jobId() + ")");
        }
      }
    }
    inputs.keySet().removeAll(outputs);
    return new Plan(inputs, located.size(), outputs.size());
  }

  /** Where a real agent with storage root {@code root} reads {@code fileId}. */
  public static Path pathOf(Path root, String fileId) {
    StorageLocations locations =
        new StorageLocations(root.toAbsolutePath().normalize().toUri(), List.of());
    try {
      return ((StorageLocations.LocalFile) locations.resolve(null, fileId)).path();
    } catch (StorageLocations.Refused e) {
      throw new IllegalArgumentException("file id " + fileId + " cannot be a file under "
          + root + ": " + e.getMessage());
    }
  }

  /**
   * Writes every file of {@code plan} under {@code root} that is not already there with the right
   * size and content (checked on its first block); nothing at all when that would be more than
   * {@code maxBytes}.
   *
   * @throws IllegalArgumentException when more than {@code maxBytes} would be written
   */
  public static Result write(Plan plan, Path root, long maxBytes) throws IOException {
    Map<String, Path> todo = new TreeMap<>();
    long bytes = 0;
    long there = 0;
    for (Map.Entry<String, Long> f : plan.files().entrySet()) {
      Path p = pathOf(root, f.getKey());
      if (isCorrect(p, f.getKey(), f.getValue())) {
        there++;
      } else {
        todo.put(f.getKey(), p);
        bytes += f.getValue();
      }
    }
    if (bytes > maxBytes) {
      throw new IllegalArgumentException("the workload's " + todo.size() + " missing input files"
          + " take " + Summary.bytes(bytes) + " (" + bytes + " bytes), more than --max-bytes "
          + maxBytes + "; nothing was written. Raise --max-bytes if " + root
          + " has room for them.");
    }
    for (Map.Entry<String, Path> f : todo.entrySet()) {
      write(f.getValue(), f.getKey(), plan.files().get(f.getKey()));
    }
    return new Result(todo.size(), bytes, there);
  }

  /** The file exists with {@code size} bytes and begins with the content of {@code id}. */
  static boolean isCorrect(Path p, String id, long size) throws IOException {
    if (!Files.isRegularFile(p) || Files.size(p) != size) {
      return false;
    }
    int n = (int) Math.min(BLOCK, size);
    byte[] expected = new byte[BLOCK];
    new SplittableRandom(seed(id)).nextBytes(expected);
    try (InputStream in = Files.newInputStream(p)) {
      byte[] got = in.readNBytes(n);
      return java.util.Arrays.equals(got, 0, n, expected, 0, n);
    }
  }

  /** Writes a temporary file next to the target and moves it in place. */
  private static void write(Path p, String id, long size) throws IOException {
    Files.createDirectories(p.getParent());
    Path tmp = p.resolveSibling("." + p.getFileName() + ".locus-tmp");
    SplittableRandom content = new SplittableRandom(seed(id));
    byte[] buf = new byte[BLOCK];
    try (OutputStream out = Files.newOutputStream(tmp)) {
      for (long left = size; left > 0; left -= buf.length) {
        content.nextBytes(buf);
        out.write(buf, 0, (int) Math.min(buf.length, left));
      }
    }
    Files.move(tmp, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** FNV-1a over the id's UTF-8 bytes: stable across JVMs, unlike String.hashCode's spread. */
  static long seed(String id) {
    long h = 0xcbf29ce484222325L;
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
