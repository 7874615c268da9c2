package io.locus.bench;

import io.locus.core.Scheduler;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.state.PoolState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The core at issue 13's scale: 1,000 nodes × 4 slots, 100,000 cached files of 10 MB with three
 * holders each (300,000 cache-index entries, 300 per node, spread so that every node holds files
 * of every part of the name space), W = 2,500, and one-file tasks over those files. Deterministic:
 * file f is held by nodes f, f + 337 and f + 674 (mod 1,000).
 */
final class ScaleFixture {
  static final int NODES = 1_000;
  static final int SLOTS = 4;
  static final int FILES = 100_000;
  static final int HOLDERS = 3;
  static final int STRIDE = 337;
  static final long FILE_BYTES = 10_000_000L;

  private ScaleFixture() {}

  /** Node ids, built once: lookups in the benchmarks should not pay for String.format. */
  private static final String[] NODE_IDS = new String[NODES];

  static {
    for (int i = 0; i < NODES; i++) {
      NODE_IDS[i] = String.format("n%04d", i);
    }
  }

  static String node(int i) {
    return NODE_IDS[i];
  }

  static String file(int f) {
    return "f" + f;
  }

  static int holder(int file, int k) {
    return (file + k * STRIDE) % NODES;
  }

  /** A scheduler for {@code policy} with every node registered and its cache reported. */
  static Scheduler pool(String policy) {
    return pool(policy, 0);
  }

  static Scheduler pool(String policy, int queueDepth) {
    return pool(policy, queueDepth, FILES, HOLDERS);
  }

  /**
   * As above, every node with {@code queueDepth} local-queue positions beyond its slots (late
   * binding: a node stays in the free pool's second tier until slots + queueDepth are placed),
   * over {@code files} files with {@code holders} holders each (file f on nodes f + k × 337 mod
   * 1,000, k &lt; holders: distinct, since 337 and 1,000 are coprime). Many holders per file is
   * the case issue 25 names: "no-idle", every node holding every file, is holders = 1,000.
   */
  static Scheduler pool(String policy, int queueDepth, int files, int holders) {
    if (holders < 1 || holders > NODES) {
      throw new IllegalArgumentException("holders must be in [1, " + NODES + "], got " + holders);
    }
    PoolState s = new PoolState();
    Scheduler sched = new Scheduler("scale", s, Policies.create(policy, Map.of()));
    List<Map<String, Long>> caches = new java.util.ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      caches.add(new HashMap<>());
    }
    for (int f = 0; f < files; f++) {
      for (int k = 0; k < holders; k++) {
        caches.get(holder(f, k)).put(file(f), FILE_BYTES);
      }
    }
    for (int i = 0; i < NODES; i++) {
      sched.applyNodeRegistered(node(i), SLOTS, queueDepth, 4_000_000_000L, null, 0);
      s.applyCacheSnapshot(node(i), 1, caches.get(i));
    }
    return sched;
  }

  static Task task(long seq, SplittableRandom rnd) {
    return task(seq, rnd, FILES);
  }

  /** A one-file task over a uniformly drawn file of the first {@code files}. */
  static Task task(long seq, SplittableRandom rnd, int files) {
    return task(seq, file(rnd.nextInt(files)));
  }

  static Task task(long seq, String file) {
    String id = "t" + seq;
    return new Task(id, id, 0, seq, List.of(InputFile.of(file, FILE_BYTES)), 0.01, seq * 0.001,
        null, List.of(), 0);
  }
}
