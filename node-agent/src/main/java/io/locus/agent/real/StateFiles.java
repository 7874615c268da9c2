package io.locus.agent.real;

import io.locus.agent.AgentIdentity;
import io.locus.agent.EpochStore;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.limits.Limits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A real agent's state that outlives a restart, as plain files in its work directory (files, not
 * directories: {@link WorkDirs} owns the directories there):
 * <ul>
 *   <li>{@value #INSTANCE_FILE}: this installation's instance id, created once (random) and reused,
 *       so a restarted agent is the same instance to the scheduler, and a copied config on another
 *       machine (another work directory) is not.
 *   <li>{@value #EPOCHS_FILE}: the highest scheduler epoch seen per pool ({@code pool=epoch}
 *       lines), replaced atomically (write a temporary file, then rename) on each change.
 * </ul>
 */
public final class StateFiles implements EpochStore {
  public static final String INSTANCE_FILE = "agent-instance-id";
  public static final String EPOCHS_FILE = "agent-epochs";
  private static final Pattern INSTANCE =
      Pattern.compile("[A-Za-z0-9._:-]{1," + Limits.MAX_ID_CHARS + "}");

  private final Path dir;
  private final Map<String, Long> epochs = new TreeMap<>();

  private StateFiles(Path dir) {
    this.dir = dir;
    Path f = dir.resolve(EPOCHS_FILE);
    if (Files.exists(f)) {
      Properties p = new Properties();
      try (var in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
        p.load(in);
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalStateException("cannot read " + f + ": " + e.getMessage()
            + " (delete it to forget the epochs seen)", e);
      }
      for (String pool : p.stringPropertyNames()) {
        try {
          epochs.put(pool, Long.parseLong(p.getProperty(pool).trim()));
        } catch (NumberFormatException e) {
          throw new IllegalStateException(f + ": epoch of pool " + pool + " is not a number: "
              + p.getProperty(pool));
        }
      }
    }
  }

  /** The state of the agent whose work directory is {@code dir} (created if needed). */
  public static StateFiles in(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    return new StateFiles(dir);
  }

  /** The identity of the agent: its kept instance id, these epochs, and {@code nodeSigner}. */
  public AgentIdentity identity(RecordSigner nodeSigner) {
    return new AgentIdentity(instanceId(), this, nodeSigner);
  }

  /** The instance id kept here; the first call of an installation creates it. */
  public synchronized String instanceId() {
    Path f = dir.resolve(INSTANCE_FILE);
    try {
      if (!Files.exists(f)) {
        String id = UUID.randomUUID().toString();
        Path tmp = Files.createTempFile(dir, INSTANCE_FILE, ".tmp");
        Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
        try {
          // No replace: of two agents started at once on one directory, the first id wins.
          Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException e) {
          Files.deleteIfExists(tmp);
        }
      }
      String id = Files.readString(f, StandardCharsets.UTF_8).strip();
      if (!INSTANCE.matcher(id).matches()) {
        throw new IllegalStateException(f + " does not hold an instance id (delete it to make a"
            + " new one)");
      }
      return id;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the instance id in " + f, e);
    }
  }

  @Override
  public synchronized long load(String pool) {
    return epochs.getOrDefault(pool, NONE);
  }

  @Override
  public synchronized void save(String pool, long epoch) {
    Long old = epochs.put(pool, epoch);
    if (old != null && old == epoch) {
      return;
    }
    StringBuilder b = new StringBuilder("# highest scheduler epoch seen, per pool\n");
    Properties escape = new Properties();
    epochs.forEach((p, e) -> escape.setProperty(p, Long.toString(e)));
    try {
      var w = new java.io.StringWriter();
      escape.store(w, null);
      b.append(w);
      Path tmp = Files.createTempFile(dir, EPOCHS_FILE, ".tmp");
      try {
        Files.writeString(tmp, b, StandardCharsets.UTF_8);
        try (var ch = java.nio.channels.FileChannel.open(tmp,
            java.nio.file.StandardOpenOption.WRITE)) {
          ch.force(true);
        }
        Files.move(tmp, dir.resolve(EPOCHS_FILE), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (AtomicMoveNotSupportedException e) {
      throw new UncheckedIOException("cannot replace " + EPOCHS_FILE + " atomically in " + dir, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot save the epochs in " + dir, e);
    }
  }
}
