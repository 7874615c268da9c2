package io.locus.core.split;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;

/**
 * The striping of {@code DELAYED} (spec §2.6, D18): cut the uncached pieces of one period at a
 * common set of points so that each stripe of the event axis is read from tape once per period.
 */
public final class Striping {
  /** One stripe [p_i, p_{i+1}) and the cut pieces whose start lies in it. */
  public record Stripe(EventSpan range, List<Cut> pieces) {}

  /** A cut piece and the index of the uncached piece it came from. */
  public record Cut(int source, EventSpan range) {}

  private Striping() {}

  /** The sorted set of start and end points of {@code pieces}. */
  public static List<Long> points(List<EventSpan> pieces) {
    TreeSet<Long> s = new TreeSet<>();
    for (EventSpan r : pieces) {
      s.add(r.start());
      s.add(r.end());
    }
    return new ArrayList<>(s);
  }

  /**
   * REMOVE_SHORT(Pts, h): greedy left-to-right removal of points that would create stripes
   * shorter than h; the last point is always kept.
   */
  public static List<Long> removeShort(List<Long> pts, double h) {
    if (pts.size() < 2) {
      return List.copyOf(pts);
    }
    List<Long> kept = new ArrayList<>();
    kept.add(pts.get(0));
    for (int i = 1; i < pts.size() - 1; i++) {
      if (pts.get(i) - kept.get(kept.size() - 1) >= h) {
        kept.add(pts.get(i));
      }
    }
    long last = pts.get(pts.size() - 1);
    if (last - kept.get(kept.size() - 1) < h && kept.size() > 1) {
      kept.remove(kept.size() - 1);
    }
    kept.add(last);
    return kept;
  }

  /** ADD_POINTS(Pts, S): equal subdivision of every stripe longer than S. */
  public static List<Long> addPoints(List<Long> pts, long s) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < pts.size(); i++) {
      long p = pts.get(i);
      out.add(p);
      if (i + 1 < pts.size()) {
        long q = pts.get(i + 1);
        if (q - p > s) {
          long m = (q - p + s - 1) / s - 1;
          for (long k = 1; k <= m; k++) {
            out.add(p + k * (q - p) / (m + 1));
          }
        }
      }
    }
    return out;
  }

  /**
   * Stripes the uncached pieces of one period: points, REMOVE_SHORT(S/2), ADD_POINTS(S), cut every
   * piece at every point strictly inside it, MERGE_SMALL within each piece, and group the cuts by
   * the stripe containing their start. Stripes without pieces are left out. The cuts of a stripe
   * keep the order of {@code pieces} (the caller lists them by job arrival, then start).
   */
  public static List<Stripe> stripe(List<EventSpan> pieces, long s, long min) {
    if (pieces.isEmpty()) {
      return List.of();
    }
    List<Long> pts = addPoints(removeShort(points(pieces), s / 2.0), s);
    List<List<Cut>> byStripe = new ArrayList<>();
    for (int i = 0; i + 1 < pts.size(); i++) {
      byStripe.add(new ArrayList<>());
    }
    for (int k = 0; k < pieces.size(); k++) {
      EventSpan r = pieces.get(k);
      List<Pieces.Piece> cuts = new ArrayList<>();
      long pos = r.start();
      int from = Collections.binarySearch(pts, r.start());
      from = from >= 0 ? from + 1 : -from - 1;
      for (int i = from; i < pts.size() && pts.get(i) < r.end(); i++) {
        cuts.add(new Pieces.Piece(new EventSpan(pos, pts.get(i)), null));
        pos = pts.get(i);
      }
      cuts.add(new Pieces.Piece(new EventSpan(pos, r.end()), null));
      for (Pieces.Piece c : Pieces.mergeSmall(cuts, min)) {
        int at = Collections.binarySearch(pts, c.range().start());
        int stripe = at >= 0 ? at : -at - 2;
        stripe = Math.max(0, Math.min(stripe, byStripe.size() - 1));
        byStripe.get(stripe).add(new Cut(k, c.range()));
      }
    }
    List<Stripe> out = new ArrayList<>();
    for (int i = 0; i < byStripe.size(); i++) {
      if (!byStripe.get(i).isEmpty()) {
        out.add(new Stripe(new EventSpan(pts.get(i), pts.get(i + 1)), byStripe.get(i)));
      }
    }
    return out;
  }
}
