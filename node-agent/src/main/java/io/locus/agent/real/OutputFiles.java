package io.locus.agent.real;

import io.locus.agent.NodeAgent;
import io.locus.agent.StageRequest;
import io.locus.agent.TaskExecutor.Result;
import io.locus.schemas.DataUnit;
import io.locus.schemas.FetchSource;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.limits.FileIds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real task's declared outputs ({@code PlaceTask.outputs}, issue 15), after its process exited 0.
 *
 * <ul>
 *   <li>The template writes output N to {@code {output}/<name>} ({@code {output:N}},
 *       {@code $LOCUS_OUTPUT_DIR/<name>}), where {@code <name>} is the id's
 *       {@link FileIds#fileName}: {@code wf/out.dat} is written as {@code wf%2Fout.dat}.
 *   <li>A declared output that is missing, or is not a regular file (a link, a directory), fails
 *       the attempt: FAILED with exit code {@link NodeAgent#ABORTED_EXIT_CODE} and a message naming
 *       every such output and where it was expected. Other files in {@code {output}} are ignored:
 *       they stay in the work directory, which is kept or deleted as usual.
 *   <li>Stage-out: when the pool's storage root is a {@code file:} directory this agent can write,
 *       each output is also written to storage where a child's storage read looks for it
 *       ({@code StorageLocations.resolve} of the output's location, by default
 *       {@code <root>/<id>}: {@code wf/out.dat} is {@code <root>/wf/out.dat}), atomically (a
 *       temporary name in the same directory, then a rename), so a child on another node still
 *       finds it after this node evicted it. A failed stage-out fails the attempt. An
 *       {@code http(s):} root, or one this agent cannot write, gets no stage-out: the outputs then
 *       live in agents' caches only.
 *   <li>Each output is then moved into the cache's {@code .incoming} and handed to the agent as a
 *       {@link StageRequest} with its real size (the declared size is informative); the agent
 *       commits it into the cache or discards it ({@code io.locus.agent.TaskOutputs}).
 * </ul>
 * Runs on the executor's launcher thread, off the agent's lock.
 */
final class OutputFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OutputFiles.class);

  private final DiskCache disk;
  private final StorageLocations storage;

  OutputFiles(DiskCache disk, StorageLocations storage) {
    this.disk = disk;
    this.storage = storage;
  }

  /** Where each declared output must be written, in order ({@code {output:N}}). */
  static List<String> paths(Path outDir, PlaceTask task) {
    List<String> paths = new ArrayList<>(task.getOutputs().size());
    for (DataUnit o : task.getOutputs()) {
      paths.add(outDir.resolve(FileIds.fileName(o.getId())).toString());
    }
    return paths;
  }

  /**
   * The result of a run whose process exited 0: {@code ok} with the outputs landed in the cache's
   * {@code .incoming}, or FAILED naming what is missing or could not be staged out.
   */
  Result collect(String node, PlaceTask task, Path outDir, Result ok) {
    List<DataUnit> declared = task.getOutputs();
    if (declared.isEmpty()) {
      return new Result(ok.exitCode(), ok.message(), List.of());
    }
    List<String> missing = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    for (DataUnit o : declared) {
      Path p = outDir.resolve(FileIds.fileName(o.getId()));
      try {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
        if (a.isRegularFile()) {
          sizes.add(a.size());
          continue;
        }
        missing.add(o.getId() + " (" + p + " is not a regular file)");
      } catch (IOException e) {
        missing.add(o.getId() + " (expected at " + p + ")");
      }
    }
    if (!missing.isEmpty()) {
      return failed("declared output" + (missing.size() > 1 ? "s" : "") + " not written: "
          + String.join(", ", missing), ok.message());
    }
    Path root = writableFileRoot();
    List<StageRequest> landed = new ArrayList<>();
    for (int i = 0; i < declared.size(); i++) {
      DataUnit o = declared.get(i);
      Path written = outDir.resolve(FileIds.fileName(o.getId()));
      StageRequest out = new StageRequest(node, o.getId(), sizes.get(i), FetchSource.LOCAL, null,
          o.getLocation(), null);
      try {
        if (root != null) {
          stageOut(root, o, written);
        }
        disk.landOutput(out, written);
        landed.add(out);
      } catch (IOException | StorageLocations.Refused e) {
        landed.forEach(disk::discard);
        String where = root != null ? "written to storage" : "moved into the cache";
        // NIO's messages are often just the path: the exception's name says what happened there.
        String why = e instanceof StorageLocations.Refused ? e.getMessage()
            : e.getClass().getSimpleName() + ": " + e.getMessage();
        return failed("output " + o.getId() + " could not be " + where + ": " + why,
            ok.message());
      }
    }
    return new Result(ok.exitCode(), ok.message(), landed);
  }

  private static Result failed(String why, String stderrTail) {
    return new Result(NodeAgent.ABORTED_EXIT_CODE, "exit code 0, but " + why
        + (stderrTail == null ? "" : "; stderr: " + stderrTail));
  }

  /** The storage root when outputs are staged out (a file: directory this agent can write). */
  private Path writableFileRoot() {
    URI root = storage.root();
    if (root == null || !"file".equals(root.getScheme().toLowerCase(Locale.ROOT))) {
      return null;
    }
    Path p = Path.of(root);
    return Files.isDirectory(p) && Files.isWritable(p) ? p : null;
  }

  /** Writes one output to its storage file: a temporary name beside it, then a rename. */
  private void stageOut(Path root, DataUnit o, Path written)
      throws IOException, StorageLocations.Refused {
    StorageLocations.StoredFile f = storage.resolve(o.getLocation(), o.getId());
    if (!(f instanceof StorageLocations.LocalFile local)) {
      return;   // an output whose own location is http(s): storage serves it, agents don't write
    }
    Path target = local.path();
    Path dir = target.getParent();
    Files.createDirectories(dir);
    // A link inside storage must not lead the write outside it (reads check the same).
    storage.realFile(new StorageLocations.LocalFile(dir));
    Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      Files.copy(written, tmp, LinkOption.NOFOLLOW_LINKS);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("cannot rename atomically in " + dir, e);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    LOG.debug("output {} staged out to {}", o.getId(), target);
  }
}
