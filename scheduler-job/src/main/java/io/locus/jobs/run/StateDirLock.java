package io.locus.jobs.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One local {@code locus run} per state directory. Two schedulers on one {@code --state-dir}
 * would restore each other's checkpoints and write theirs into the same place; the second one
 * is refused at start with one line that names the holder and the flag (issue 22). The lock is
 * an OS file lock, so a {@code kill -9}'d run does not leave the directory locked.
 */
final class StateDirLock implements AutoCloseable {
  static final String FILE = ".locus-run.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private StateDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Locks {@code stateDir} (created if missing) for this process, or says who holds it. */
  static StateDirLock acquire(Path stateDir) throws IOException, StartClash {
    Path dir = stateDir.toAbsolutePath();
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE);
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = ch.tryLock();
    } catch (OverlappingFileLockException sameJvm) {
      l = null;
    }
    if (l == null) {
      String holder = holder(ch);
      ch.close();
      throw new StartClash("--state-dir " + dir + " is in use by another locus run on this "
          + "machine" + (holder.isEmpty() ? "" : " (" + holder + ")") + "; give this scheduler "
          + "its own --state-dir, or stop the other one first");
    }
    String me = "pid " + ProcessHandle.current().pid();
    ch.truncate(0);
    ch.write(ByteBuffer.wrap(me.getBytes(StandardCharsets.UTF_8)), 0);
    ch.force(false);
    return new StateDirLock(ch, l);
  }

  private static String holder(FileChannel ch) {
    try {
      ByteBuffer b = ByteBuffer.allocate(64);
      int n = ch.read(b, 0);
      return n <= 0 ? "" : new String(b.array(), 0, n, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
