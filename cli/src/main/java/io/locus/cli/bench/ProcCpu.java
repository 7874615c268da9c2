package io.locus.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a Linux process from {@code /proc/<pid>/stat}: its own (user + system, every thread)
 * and its reaped children's (the task processes a real agent started and waited for). The bench
 * reads it before the first publish and after the last COMPLETED, so a run's CPU per task leaves
 * out JVM start-up and JIT warm-up before the run. Figures are in clock ticks of {@value #HZ} Hz
 * (USER_HZ, 100 on every Linux the project runs on): 10 ms resolution, fine over a run of seconds.
 */
record ProcCpu(long selfMs, long childrenMs) {
  static final int HZ = 100;
  static final ProcCpu NONE = new ProcCpu(0, 0);

  /** The process's CPU now; {@link #NONE} where /proc cannot tell (not Linux, process gone). */
  static ProcCpu of(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) may hold spaces: fields are counted after its ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long self = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      long children = Long.parseLong(f[13]) + Long.parseLong(f[14]);
      return new ProcCpu(self * 1000 / HZ, children * 1000 / HZ);
    } catch (IOException | RuntimeException e) {
      return NONE;
    }
  }

  ProcCpu minus(ProcCpu before) {
    return new ProcCpu(selfMs - before.selfMs, childrenMs - before.childrenMs);
  }

  ProcCpu plus(ProcCpu other) {
    return new ProcCpu(selfMs + other.selfMs, childrenMs + other.childrenMs);
  }
}
