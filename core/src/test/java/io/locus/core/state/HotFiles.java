package io.locus.core.state;

/**
 * Test access to {@link DispatchIndex}'s hot-file threshold from other packages, so the policy
 * tests can run with hot files coming and going in their small pools (a few nodes per file).
 */
public final class HotFiles {
  private HotFiles() {}

  /** Runs {@code r} with the threshold at {@code holders}, then puts the default back. */
  public static void with(int holders, Runnable r) {
    int before = DispatchIndex.hotHolders;
    DispatchIndex.hotHolders = holders;
    try {
      r.run();
    } finally {
      DispatchIndex.hotHolders = before;
    }
  }

  /**
   * Runs {@code r} with the hot-file threshold at {@code holders} and nodes holding more than
   * {@code wide} files counted as wide ({@code HotReaders}), then puts both defaults back.
   */
  public static void with(int holders, int wide, Runnable r) {
    int before = HotReaders.wideFiles;
    HotReaders.wideFiles = wide;
    try {
      with(holders, r);
    } finally {
      HotReaders.wideFiles = before;
    }
  }
}
