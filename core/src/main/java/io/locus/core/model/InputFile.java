package io.locus.core.model;

/** A unit of input data (a file). {@code location} null means the pool's default storage. */
public record InputFile(String id, long bytes, double computeSeconds, String location, String checksum) {
  public InputFile {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative size for " + id);
    }
  }

  public static InputFile of(String id, long bytes) {
    return new InputFile(id, bytes, 0.0, null, null);
  }
}
