package io.locus.agent.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the agents' own threads (host threads named "locus-agent…", their producer's network
 * thread, the JDK's "process reaper" threads), summed over the threads alive now. Under a loaded machine wall-clock rates are
 * noise; CPU per task is what the agent costs.
 */
final class AgentCpu {
  private AgentCpu() {}

  static long nanos() {
    return byGroup().values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * The same by group of threads: "producer", "decisions", "proc" (process launch and exit),
   * "process reaper" and "other" agent threads.
   */
  static java.util.Map<String, Long> byGroup() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    java.util.Map<String, Long> sum = new java.util.TreeMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String n = t.getName();
      // The agents' producer thread is "kafka-producer-network-thread | locus-agent-…".
      String group = n.contains("| locus-agent") ? "producer"
          : n.startsWith("process reaper") ? "process reaper"
          : !n.startsWith("locus-agent") ? null
          : n.endsWith("-decisions") ? "decisions"
          : n.contains("-proc-") ? "proc"
          : "other";
      if (group != null) {
        long c = mx.getThreadCpuTime(t.getId());
        if (c > 0) {
          sum.merge(group, c, Long::sum);
        }
      }
    }
    return sum;
  }

  /**
   * CPU of this JVM's reaped child processes (the tasks), from /proc/self/stat (cutime + cstime,
   * in USER_HZ = 100 ticks a second); 0 where there is no /proc.
   */
  static long childrenNanos() {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10_000_000L;
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }
}
