package io.locus.core.split;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongToDoubleFunction;

/** The common primitives of spec §2.0 that cut event ranges into pieces. */
public final class Pieces {
  /** A piece of a job: fully cached on {@code cachedOn}, or cached nowhere (null). */
  public record Piece(EventSpan range, String cachedOn) {
    public long length() {
      return range.length();
    }
  }

  private Pieces() {}

  /**
   * SPLIT_BY_CACHE: cuts {@code job} into pieces each fully cached on one node or on none. Where
   * several nodes cache a range, {@code choose} picks one from the sorted holder list (the policy
   * passes "smallest backlog, tie lowest id"). Neighbouring pieces with the same holder are joined;
   * then MERGE_SMALL.
   */
  public static List<Piece> splitByCache(EventSpan job, CoverageIndex index,
      Function<List<String>, String> choose, long min) {
    List<Piece> raw = new ArrayList<>();
    for (CoverageIndex.Segment s : index.segments(job.start(), job.end())) {
      String holder = s.holders().isEmpty() ? null
          : s.holders().size() == 1 ? s.holders().get(0) : choose.apply(s.holders());
      if (!raw.isEmpty() && Objects.equals(raw.get(raw.size() - 1).cachedOn(), holder)) {
        Piece last = raw.remove(raw.size() - 1);
        raw.add(new Piece(new EventSpan(last.range().start(), s.range().end()), holder));
      } else {
        raw.add(new Piece(s.range(), holder));
      }
    }
    return mergeSmall(raw, min);
  }

  /**
   * MERGE_SMALL: a piece shorter than {@code min} joins its left neighbour and keeps the left
   * piece's holder, or, when it is first, joins its right neighbour and keeps the right one's. A
   * lone short piece stays as it is. Pieces must be contiguous and in order.
   */
  public static List<Piece> mergeSmall(List<Piece> pieces, long min) {
    List<Piece> out = new ArrayList<>(pieces.size());
    Piece carry = null; // short leading pieces waiting for a right neighbour
    for (Piece p : pieces) {
      if (carry != null) {
        p = new Piece(new EventSpan(carry.range().start(), p.range().end()), p.cachedOn());
        carry = null;
        if (p.length() < min) {
          carry = p;
          continue;
        }
        out.add(p);
      } else if (p.length() < min) {
        if (out.isEmpty()) {
          carry = p;
        } else {
          Piece last = out.remove(out.size() - 1);
          out.add(new Piece(new EventSpan(last.range().start(), p.range().end()),
              last.cachedOn()));
        }
      } else {
        out.add(p);
      }
    }
    if (carry != null) {
      out.add(carry);
    }
    return out;
  }

  /**
   * SPLIT_EQUAL: {@code p} contiguous pieces of r; the first (r mod p) get ⌊r/p⌋ + 1 events, the
   * others ⌊r/p⌋.
   */
  public static List<EventSpan> splitEqual(EventSpan r, int p) {
    if (p < 1 || p > r.length()) {
      throw new IllegalArgumentException("cannot split " + r + " into " + p + " pieces");
    }
    long q = r.length() / p;
    long extra = r.length() % p;
    List<EventSpan> out = new ArrayList<>(p);
    long pos = r.start();
    for (int i = 0; i < p; i++) {
      long len = q + (i < extra ? 1 : 0);
      out.add(new EventSpan(pos, pos + len));
      pos += len;
    }
    return out;
  }

  /**
   * SPLIT_TIME_BALANCED([m, e)): the smallest x in [m + MIN, e − MIN] with W_a + head(x) ≥ W_b +
   * tail(x), where head(x) is a's cost of [m, x) and tail(x) is b's cost of [x, e); −1 when
   * m + MIN > e − MIN or no such x exists (b could not finish before a even with MIN events, so
   * the split gains nothing).
   */
  public static long splitTimeBalanced(long m, long e, long min, LongToDoubleFunction head,
      LongToDoubleFunction tail, double wa, double wb) {
    long lo = m + min;
    long hi = e - min;
    if (lo > hi) {
      return -1;
    }
    if (wa + head.applyAsDouble(hi) < wb + tail.applyAsDouble(hi)) {
      return -1;
    }
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (wa + head.applyAsDouble(mid) >= wb + tail.applyAsDouble(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
