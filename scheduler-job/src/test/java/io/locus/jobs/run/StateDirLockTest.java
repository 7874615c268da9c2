package io.locus.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 22: a second locus run on the same --state-dir is one clear line, not a collision. */
class StateDirLockTest {
  @TempDir Path dir;

  @Test
  void aSecondHolderIsRefusedNamingTheFlagAndTheHolder() throws Exception {
    Path state = dir.resolve("locus-state");
    try (StateDirLock first = StateDirLock.acquire(state)) {
      assertThatThrownBy(() -> StateDirLock.acquire(state))
          .isInstanceOf(StartClash.class)
          .hasMessage("--state-dir " + state.toAbsolutePath() + " is in use by another locus run "
              + "on this machine (pid " + ProcessHandle.current().pid() + "); give this "
              + "scheduler its own --state-dir, or stop the other one first");
    }
    // Released with the run: the next run takes it.
    try (StateDirLock again = StateDirLock.acquire(state)) {
      assertThat(state.resolve(StateDirLock.FILE)).exists();
    }
  }

  @Test
  void aHolderInAnotherProcessIsRefusedToo() throws Exception {
    Path state = dir.resolve("shared");
    try (StateDirLock mine = StateDirLock.acquire(state)) {
      // Another JVM (a second `locus run`) trying the same dir: flock-style locks are per process.
      Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-cp", System.getProperty("java.class.path"),
          StateDirLockTest.class.getName() + "$TryLock", state.toString())
          .redirectErrorStream(true).start();
      String said = new String(other.getInputStream().readAllBytes());
      assertThat(other.waitFor()).as(said).isEqualTo(3);
      assertThat(said).contains("is in use by another locus run on this machine (pid "
          + ProcessHandle.current().pid() + ")");
    }
  }

  /** The other process: exit 3 with the message when refused, 0 when it got the lock. */
  public static final class TryLock {
    public static void main(String[] args) throws Exception {
      try (StateDirLock l = StateDirLock.acquire(Path.of(args[0]))) {
        System.exit(0);
      } catch (StartClash e) {
        System.out.println(e.getMessage());
        System.exit(3);
      }
    }
  }
}
