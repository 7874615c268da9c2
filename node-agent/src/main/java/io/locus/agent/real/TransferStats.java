package io.locus.agent.real;

import io.locus.schemas.FetchSource;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the bytes a real agent actually moved (retries and failed transfers included, unlike
 * the task events' bytes, which count each input once) and of its peer server. Thread-safe.
 */
public final class TransferStats {
  final Map<FetchSource, LongAdder> bytes = new EnumMap<>(FetchSource.class);
  final Map<FetchSource, LongAdder> ok = new EnumMap<>(FetchSource.class);
  final Map<FetchSource, LongAdder> notFound = new EnumMap<>(FetchSource.class);
  final Map<FetchSource, LongAdder> failed = new EnumMap<>(FetchSource.class);
  final AtomicInteger active = new AtomicInteger();
  final LongAdder resumed = new LongAdder();
  final LongAdder servedBytes = new LongAdder();
  final LongAdder servedOk = new LongAdder();
  final LongAdder servedNotFound = new LongAdder();
  final LongAdder servedDenied = new LongAdder();

  public TransferStats() {
    for (FetchSource s : FetchSource.values()) {
      bytes.put(s, new LongAdder());
      ok.put(s, new LongAdder());
      notFound.put(s, new LongAdder());
      failed.put(s, new LongAdder());
    }
  }

  public long bytes(FetchSource s) {
    return bytes.get(s).sum();
  }

  public long completed(FetchSource s) {
    return ok.get(s).sum();
  }

  public long notFound(FetchSource s) {
    return notFound.get(s).sum();
  }

  public long failed(FetchSource s) {
    return failed.get(s).sum();
  }

  /** Transfers running now. */
  public int active() {
    return active.get();
  }

  /** HTTP transfers continued with a range request after a broken connection. */
  public long resumed() {
    return resumed.sum();
  }

  /** Bytes this node's peer server sent. */
  public long servedBytes() {
    return servedBytes.sum();
  }

  public long servedOk() {
    return servedOk.sum();
  }

  public long servedNotFound() {
    return servedNotFound.sum();
  }

  public long servedDenied() {
    return servedDenied.sum();
  }
}
