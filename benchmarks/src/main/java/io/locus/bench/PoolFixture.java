package io.locus.bench;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A busy pool in steady state, as in the data-diffusion MI setup: 64 nodes × 2 slots, 10,000 files
 * of 10 MB, warm caches (each node holds 150 files), and a backlog of queued one-file tasks. One
 * benchmark operation = one task completes and one arrives, which frees a slot and lets the policy
 * place about one task.
 */
final class PoolFixture {
  static final int NODES = 64;
  static final int SLOTS = 2;
  static final int FILES = 10_000;
  static final int CACHED_PER_NODE = 150;
  static final long FILE_BYTES = 10_000_000L;

  private PoolFixture() {}

  static String node(int i) {
    return String.format("n%03d", i);
  }

  static String file(int f) {
    return "f" + f;
  }

  static Task task(long seq, SplittableRandom rnd) {
    return new Task("t" + seq, "t" + seq, 0, seq,
        List.of(InputFile.of(file(rnd.nextInt(FILES)), FILE_BYTES)), 0.01, seq * 0.001, null,
        List.of(), 0);
  }
}
