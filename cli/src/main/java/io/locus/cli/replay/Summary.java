package io.locus.cli.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The end of a replay in numbers. Definitions (docs/operations.md): makespan = last completion −
 * first submission; response = completion − submission, per completed task; hit ratios = bytes
 * read locally / from a peer / from storage over all input bytes the completed tasks read; bytes
 * moved = peer + storage bytes.
 *
 * @param published jobs Kafka acknowledged
 * @param publishFailed jobs Kafka did not accept
 * @param completed tasks completed
 * @param failed tasks with a failed attempt and no completion
 */
public record Summary(String workload, long jobs, long published, long publishFailed,
    long completed, long failed, double makespanSeconds, double meanResponseSeconds,
    long bytesLocal, long bytesPeer, long bytesStorage) {

  /** The CSV columns, in order. */
  public static final List<String> COLUMNS = List.of("workload", "jobs", "published",
      "publish_failed", "completed", "failed", "makespan_s", "mean_response_s", "local_ratio",
      "peer_ratio", "storage_ratio", "bytes_local", "bytes_peer", "bytes_storage", "bytes_moved");

  public long bytesRead() {
    return bytesLocal + bytesPeer + bytesStorage;
  }

  public long bytesMoved() {
    return bytesPeer + bytesStorage;
  }

  public double localRatio() {
    return ratio(bytesLocal);
  }

  public double peerRatio() {
    return ratio(bytesPeer);
  }

  public double storageRatio() {
    return ratio(bytesStorage);
  }

  private double ratio(long part) {
    long all = bytesRead();
    return all == 0 ? 0 : (double) part / all;
  }

  /** Header line and one row; text quoted only when it needs it (RFC 4180). */
  public String csv() {
    List<String> row = List.of(quote(workload), Long.toString(jobs), Long.toString(published),
        Long.toString(publishFailed), Long.toString(completed), Long.toString(failed),
        num(makespanSeconds), num(meanResponseSeconds), num(localRatio()), num(peerRatio()),
        num(storageRatio()), Long.toString(bytesLocal), Long.toString(bytesPeer),
        Long.toString(bytesStorage), Long.toString(bytesMoved()));
    return String.join(",", COLUMNS) + "\n" + String.join(",", row) + "\n";
  }

  public void writeCsv(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, csv());
  }

  /** A small table for a person. */
  public String table() {
    StringBuilder b = new StringBuilder();
    row(b, "workload", workload);
    row(b, "published", published + " / " + jobs + (publishFailed > 0
        ? " (" + publishFailed + " not accepted by Kafka)" : ""));
    row(b, "completed", completed + " / " + published + (failed > 0
        ? " (" + failed + " failed)" : ""));
    row(b, "makespan", String.format(Locale.ROOT, "%.2f s", makespanSeconds));
    row(b, "mean response", String.format(Locale.ROOT, "%.2f s", meanResponseSeconds));
    row(b, "hit ratios", String.format(Locale.ROOT, "local %.1f%%  peer %.1f%%  storage %.1f%%",
        100 * localRatio(), 100 * peerRatio(), 100 * storageRatio()));
    row(b, "bytes moved", String.format(Locale.ROOT, "%s (peer %s, storage %s; local %s)",
        bytes(bytesMoved()), bytes(bytesPeer), bytes(bytesStorage), bytes(bytesLocal)));
    return b.toString();
  }

  private static void row(StringBuilder b, String name, String value) {
    b.append(String.format(Locale.ROOT, "%-14s %s%n", name, value));
  }

  static String bytes(long n) {
    return io.locus.schemas.units.ByteSize.text(n);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.6f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  private static String quote(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
