package io.locus.core.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;

/**
 * A uniformly random unpinned victim from a PRNG seeded at construction: the same seed and the
 * same calls give the same victims. Files live in an array with an index map (O(1) insert and
 * remove, by swapping the last file into the hole).
 */
public final class RandomEviction implements EvictionPolicy {
  /** Random probes before falling back to an exact scan (only when most files are pinned). */
  private static final int PROBES = 8;

  private final Random random;
  private final List<String> files = new ArrayList<>();
  private final Map<String, Integer> index = new HashMap<>();

  public RandomEviction(long seed) {
    this.random = new Random(seed);
  }

  @Override
  public String name() {
    return "RANDOM";
  }

  @Override
  public void onInsert(String file, long bytes) {
    if (!index.containsKey(file)) {
      index.put(file, files.size());
      files.add(file);
    }
  }

  @Override
  public void onAccess(String file) {}

  @Override
  public void onRemove(String file) {
    Integer i = index.remove(file);
    if (i == null) {
      return;
    }
    String last = files.remove(files.size() - 1);
    if (i < files.size()) {
      files.set(i, last);
      index.put(last, i);
    }
  }

  @Override
  public String victim(Predicate<String> pinned) {
    int n = files.size();
    if (n == 0) {
      return null;
    }
    // Rejection sampling is uniform over the unpinned files; the fallback scan is too.
    for (int k = 0; k < PROBES; k++) {
      String f = files.get(random.nextInt(n));
      if (!pinned.test(f)) {
        return f;
      }
    }
    List<String> free = new ArrayList<>();
    for (String f : files) {
      if (!pinned.test(f)) {
        free.add(f);
      }
    }
    return free.isEmpty() ? null : free.get(random.nextInt(free.size()));
  }

  @Override
  public void clear() {
    files.clear();
    index.clear();
  }
}
