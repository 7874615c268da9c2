package io.locus.agent.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the agents' own threads (host threads named "locus-agent…", the JDK's "process
 * reaper" threads), summed over the threads alive now. Under a loaded machine wall-clock rates are
 * noise; CPU per task is what the agent costs.
 */
final class AgentCpu {
  private AgentCpu() {}

  static long nanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String n = t.getName();
      if (n.startsWith("locus-agent") || n.startsWith("process reaper")) {
        long c = mx.getThreadCpuTime(t.getId());
        if (c > 0) {
          sum += c;
        }
      }
    }
    return sum;
  }
}
