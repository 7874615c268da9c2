package io.locus.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bench's CPU figures from /proc: this JVM's own CPU, and that of the children it reaped. */
class ProcCpuTest {
  @Test
  void countsThisProcessesCpuAndItsReapedChildren() throws Exception {
    long pid = ProcessHandle.current().pid();
    ProcCpu before = ProcCpu.of(pid);
    // Burn 300 ms of this thread's CPU (not of wall time: the machine may be loaded).
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long until = mx.getCurrentThreadCpuTime() + 300_000_000L;
    long x = 0;
    while (mx.getCurrentThreadCpuTime() < until) {
      x += Long.numberOfTrailingZeros(x + 1);
    }
    Process child = new ProcessBuilder("sh", "-c",
        "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    ProcCpu used = ProcCpu.of(pid).minus(before);
    // Clock ticks are 10 ms: at least 290 of the 300 burnt show.
    assertThat(used.selfMs()).as("x=%d", x).isGreaterThanOrEqualTo(290);
    assertThat(used.childrenMs()).isPositive();
  }

  @Test
  void aProcessThatDoesNotExistReadsAsNone() {
    assertThat(ProcCpu.of(Long.MAX_VALUE)).isEqualTo(ProcCpu.NONE);
    assertThat(new ProcCpu(50, 20).minus(new ProcCpu(10, 5)).plus(new ProcCpu(1, 1)))
        .isEqualTo(new ProcCpu(41, 16));
  }
}
