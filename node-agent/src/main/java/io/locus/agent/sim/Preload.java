package io.locus.agent.sim;

import java.util.Objects;

/**
 * Files every simulated node holds in its cache from the start (the bench's no-idle workload: each
 * file has as many holders as there are nodes): {@code prefix0} … {@code prefix(files-1)}, of
 * {@code bytes} each. Announced by each node's first REGISTER, as a restarted agent announces its
 * warm cache.
 */
public record Preload(int files, long bytes, String prefix) {
  public static final String DEFAULT_PREFIX = "bench-file-";
  public static final Preload NONE = new Preload(0, 1, DEFAULT_PREFIX);

  public Preload {
    Objects.requireNonNull(prefix, "prefix");
    if (files < 0) {
      throw new IllegalArgumentException("preload files must be >= 0, got " + files);
    }
    if (bytes <= 0) {
      throw new IllegalArgumentException("preload bytes must be > 0, got " + bytes);
    }
    if (prefix.isBlank()) {
      throw new IllegalArgumentException("preload prefix must not be blank");
    }
  }

  /** The id of the {@code i}-th preloaded file. */
  public String fileId(int i) {
    return prefix + i;
  }

  /**
   * Checks that the files fit a cache of {@code capacity} bytes.
   *
   * @throws IllegalArgumentException when files × bytes exceeds it
   */
  public Preload fitting(long capacity) {
    // files * bytes may overflow a long: compare by division instead.
    if (files > 0 && bytes > capacity / files) {
      throw new IllegalArgumentException("preload of " + files + " files of " + bytes
          + " bytes does not fit the cache of " + capacity + " bytes");
    }
    return this;
  }
}
