package io.locus.agent;

import io.locus.schemas.FetchSource;

/**
 * Input bytes by where they were read: of one task run (its task event's bytesLocal, bytesPeer,
 * bytesStorage) or of a whole agent. Each input is counted once, whatever retries moved.
 */
final class InputBytes {
  long local;
  long peer;
  long storage;

  void add(FetchSource source, long bytes) {
    switch (source) {
      case LOCAL -> local += bytes;
      case PEER -> peer += bytes;
      case STORAGE -> storage += bytes;
      default -> throw new IllegalStateException("unknown source " + source);
    }
  }
}
