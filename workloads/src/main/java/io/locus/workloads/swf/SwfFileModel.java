package io.locus.workloads.swf;

import io.locus.core.model.InputFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Which files an SWF job reads. SWF records no files, so Locus applies this seeded model
 * (documented in workloads/README.md): jobs of the same user running the same executable work on
 * the same data.
 *
 * <ul>
 *   <li>Each (user, executable) pair owns a data set of k files, k uniform in [{@value #K_MIN},
 *       {@value #K_MAX}]; each file's size is log-uniform in [{@value #MIN_BYTES}, {@value
 *       #MAX_BYTES}] bytes (10 MB to 1 GB, decimal).
 *   <li>Each user owns one shared file (a reference data set, say), of a size drawn the same way.
 *   <li>A job reads its pair's data set, then its user's shared file.
 *   <li>The draws for a pair come from a random stream seeded by {@code mix(seed, user,
 *       executable)} (SplitMix64's finaliser), the shared file's from {@code mix(seed, user, -2)}:
 *       they depend only on the seed and the ids, never on the order of the log, so the same file
 *       and seed give the same jobs and another seed gives other file sets.
 *   <li>File ids: {@code <instance>/u<user>-x<executable>-<i>} and {@code
 *       <instance>/u<user>-shared}; a missing (-1) user or executable is written {@code none}.
 * </ul>
 */
public final class SwfFileModel {
  public static final int K_MIN = 1;
  public static final int K_MAX = 8;
  public static final long MIN_BYTES = 10_000_000L;
  public static final long MAX_BYTES = 1_000_000_000L;
  private static final long SHARED = -2;

  private final String instance;
  private final long seed;
  private final Map<String, List<InputFile>> sets = new HashMap<>();
  private final Map<Long, InputFile> shared = new HashMap<>();

  public SwfFileModel(String instance, long seed) {
    this.instance = instance;
    this.seed = seed;
  }

  /** The files a job of {@code user} running {@code executable} reads, in read order. */
  public List<InputFile> files(long user, long executable) {
    List<InputFile> set = sets.computeIfAbsent(user + " " + executable, k -> {
      SplittableRandom r = new SplittableRandom(mix(seed, user, executable));
      int n = K_MIN + r.nextInt(K_MAX - K_MIN + 1);
      List<InputFile> files = new ArrayList<>(n + 1);
      for (int i = 0; i < n; i++) {
        files.add(InputFile.of(instance + "/u" + id(user) + "-x" + id(executable) + "-" + i,
            size(r)));
      }
      files.add(shared.computeIfAbsent(user, u -> InputFile.of(instance + "/u" + id(u)
          + "-shared", size(new SplittableRandom(mix(seed, u, SHARED))))));
      return List.copyOf(files);
    });
    return set;
  }

  private static String id(long v) {
    return v < 0 ? "none" : Long.toString(v);
  }

  /** Log-uniform in [MIN_BYTES, MAX_BYTES]. */
  private static long size(SplittableRandom r) {
    double lo = Math.log(MIN_BYTES);
    double hi = Math.log(MAX_BYTES);
    return Math.min(MAX_BYTES, Math.max(MIN_BYTES, Math.round(Math.exp(lo + r.nextDouble()
        * (hi - lo)))));
  }

  static long mix(long seed, long a, long b) {
    return fmix(fmix(fmix(seed) ^ a) ^ b);
  }

  /** SplitMix64's finaliser: a fixed bijection that spreads nearby inputs apart. */
  private static long fmix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
