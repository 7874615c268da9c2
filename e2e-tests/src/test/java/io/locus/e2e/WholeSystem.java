package io.locus.e2e;

import io.locus.jobs.EmbeddedLocus;
import io.locus.jobs.demo.DemoRun;
import io.locus.jobs.demo.DemoWorkload;
import io.locus.jobs.demo.TaskEventTracker;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;

/** Shared settings for the whole-system tests: fast modelled time, small caches, real everything. */
final class WholeSystem {
  static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
  static final PrintStream LOUD = System.out;

  private WholeSystem() {}

  static DemoRun.Config run(String pool, int tasks, int files, int nodes, long seed,
      boolean readCommitted) {
    return new DemoRun.Config(pool, nodes, 2, 1_000_000_000L,
        DemoWorkload.Spec.demo(tasks, files, seed), 400, 0.01, 50e6, 100e6, 400e6, readCommitted,
        Duration.ofSeconds(150));
  }

  static DemoRun.Result go(EmbeddedLocus locus, TaskEventTracker tracker, DemoRun.Config cfg)
      throws InterruptedException {
    DemoRun.Result r = DemoRun.run(locus, tracker, cfg, LOUD);
    LOUD.printf("%s: completed %d/%d, hit ratio %.3f, duplicates %d, refused %d, max on a node %d%n",
        cfg.pool(), r.stats().completed, r.tasks(), r.stats().hitRatio(),
        r.stats().duplicateCompletions, r.stats().refused, r.stats().maxConcurrentOnANode);
    return r;
  }
}
