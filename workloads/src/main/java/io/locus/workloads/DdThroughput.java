package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code DD_THROUGHPUT}, the data-diffusion throughput microbenchmark (data-diffusion spec §4.6,
 * experiment DD7, D28).
 *
 * <p>A run has 20 tasks per slot, all at t = 0, each reading one file of the chosen size and
 * computing nothing, so the run measures I/O throughput only.
 *
 * <ul>
 *   <li><b>0 % locality:</b> every task reads its own, never reused file; caches start cold.
 *   <li><b>100 % locality:</b> the file set has one file per slot. Task k reads file k mod F, so
 *       each file is read 20 times. The caches are pre-warmed before the run: file f is cached on
 *       executor f / slots only (exactly one executor, one file per slot). The job attribute
 *       {@code prewarmExecutor} and {@link #prewarmed} carry that placement, so a replayed trace
 *       file still describes the warm state.
 * </ul>
 *
 * <p>In read+write mode each task also writes as many bytes as it read (attribute {@code
 * writeBytes}): to the node's local disk, or to the file system for FA. Nothing is random.
 */
public final class DdThroughput {
  public static final int TASKS_PER_SLOT = 20;
  public static final long DEFAULT_FILE_BYTES = 100 * Units.MB;
  /** Published node grid; other counts are accepted. */
  public static final List<Integer> NODE_GRID = List.of(1, 2, 4, 8, 16, 32, 64);

  public enum Locality {
    ZERO,
    FULL
  }

  public enum Mode {
    READ("read"),
    READ_WRITE("read+write");

    public final String label;

    Mode(String label) {
      this.label = label;
    }
  }

  private DdThroughput() {}

  public static Workload workload(int nodes, int slotsPerNode, long fileBytes, Locality locality,
      Mode mode, int tasksPerSlot) {
    if (nodes < 1 || slotsPerNode < 1 || tasksPerSlot < 1 || fileBytes < 0) {
      throw new IllegalArgumentException("DD_THROUGHPUT needs nodes, slots, tasksPerSlot >= 1 and"
          + " fileBytes >= 0");
    }
    int slots = Math.multiplyExact(nodes, slotsPerNode);
    long tasks = (long) slots * tasksPerSlot;
    Map<String, String> common = mode == Mode.READ
        ? Map.of("mode", mode.label)
        : Map.of("mode", mode.label, "writeBytes", Long.toString(fileBytes));
    return new Workload("dd-throughput",
        "DD_THROUGHPUT (data-diffusion §4.6): " + nodes + " nodes x " + slotsPerNode + " slots, "
            + tasksPerSlot + " tasks per slot at t = 0, " + fileBytes + " B files, "
            + (locality == Locality.ZERO ? "0 %" : "100 %") + " locality, " + mode.label,
        tasks, () -> new CountingIterator(tasks) {
          @Override
          TraceJob make(long k) {
            Map<String, String> attrs = common;
            long file = k;
            if (locality == Locality.FULL) {
              file = k % slots;
              attrs = new LinkedHashMap<>(common);
              attrs.put("prewarmExecutor", Long.toString(file / slotsPerNode));
            }
            InputFile in = new InputFile("dd-f" + file, fileBytes, 0.0, null, null);
            return new TraceJob("dd-" + k, null, 0.0, List.of(in), 0.0, 0, attrs);
          }
        });
  }

  /**
   * The warm cache state of a 100 %-locality run: file id → index (0-based) of the one executor
   * that caches it before the run.
   */
  public static Map<String, Integer> prewarmed(int nodes, int slotsPerNode) {
    Map<String, Integer> placement = new LinkedHashMap<>();
    for (int f = 0; f < nodes * slotsPerNode; f++) {
      placement.put("dd-f" + f, f / slotsPerNode);
    }
    return placement;
  }
}
