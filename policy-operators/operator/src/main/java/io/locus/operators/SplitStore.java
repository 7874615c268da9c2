package io.locus.operators;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * A split pool's keyed state: the {@link SplitPoolDriver} snapshot ({@code split-pool}) and the
 * ids of finished jobs with the pool clock at their end ({@code split-finished-jobs}: a
 * resubmitted finished job is rejected). {@link #open} is the Flink one; {@link #inMemory} serves
 * drivers run without Flink (tests, benchmarks).
 */
interface SplitStore {
  /** The stored snapshot, or null. */
  byte[] snapshot() throws Exception;

  void saveSnapshot(byte[] snapshot) throws Exception;

  /** Whether a job with that id finished in this pool. */
  boolean finished(String jobId) throws Exception;

  void markFinished(String jobId, long clockMs) throws Exception;

  /** The pool left the split family: its snapshot goes (finished ids stay, for duplicates). */
  void clear() throws Exception;

  static SplitStore open(RuntimeContext ctx) {
    ValueState<byte[]> snapshot = ctx.getState(new ValueStateDescriptor<>(
        "split-pool", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    MapState<String, Long> finished = ctx.getMapState(new MapStateDescriptor<>(
        "split-finished-jobs", Types.STRING, Types.LONG));
    return new SplitStore() {
      @Override
      public byte[] snapshot() throws Exception {
        return snapshot.value();
      }

      @Override
      public void saveSnapshot(byte[] s) throws Exception {
        snapshot.update(s);
      }

      @Override
      public boolean finished(String jobId) throws Exception {
        return finished.contains(jobId);
      }

      @Override
      public void markFinished(String jobId, long clockMs) throws Exception {
        finished.put(jobId, clockMs);
      }

      @Override
      public void clear() {
        snapshot.clear();
      }
    };
  }

  static SplitStore inMemory() {
    Map<String, Long> finished = new HashMap<>();
    byte[][] snapshot = new byte[1][];
    return new SplitStore() {
      @Override
      public byte[] snapshot() {
        return snapshot[0];
      }

      @Override
      public void saveSnapshot(byte[] s) {
        snapshot[0] = s;
      }

      @Override
      public boolean finished(String jobId) {
        return finished.containsKey(jobId);
      }

      @Override
      public void markFinished(String jobId, long clockMs) {
        finished.put(jobId, clockMs);
      }

      @Override
      public void clear() {
        snapshot[0] = null;
      }
    };
  }
}
