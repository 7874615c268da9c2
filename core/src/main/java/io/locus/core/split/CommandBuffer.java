package io.locus.core.split;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands one input produces, while it runs. A subjob's RUN can be rewritten or taken back
 * before the input ends (a SHRINK or SUSPEND of a subjob placed by the same input never reaches
 * the agent: its RUN changes instead), so each subjob remembers the index of its RUN here.
 */
final class CommandBuffer {
  private List<SplitCommand> out;
  private final List<Subjob> inOut = new ArrayList<>();

  /** Starts collecting; an input inside an input is refused. */
  void open() {
    if (out != null) {
      throw new IllegalStateException("re-entrant call");
    }
    out = new ArrayList<>();
  }

  boolean isOpen() {
    return out != null;
  }

  void add(SplitCommand c) {
    out.add(c);
  }

  /** Emits x's RUN, replacing the one this input already emitted for it. */
  void run(Subjob x, String awaits) {
    SplitCommand.Run r = new SplitCommand.Run(x.node.id, x.id, x.job.id, x.range(),
        clip(x.segments, x.start, x.end), awaits);
    if (x.outIndex >= 0) {
      out.set(x.outIndex, r);
    } else {
      out.add(r);
      x.outIndex = out.size() - 1;
      inOut.add(x);
    }
  }

  /** Takes back the RUN this input emitted for x. */
  void takeBack(Subjob x) {
    out.set(x.outIndex, null);
    x.outIndex = -1;
  }

  /** The commands, in order, without those taken back; the buffer is closed. */
  List<SplitCommand> close() {
    List<SplitCommand> result = new ArrayList<>(out.size());
    for (SplitCommand c : out) {
      if (c != null) {
        result.add(c);
      }
    }
    abort();
    return result;
  }

  /** Abandons the output of an input that threw (its state changes are not undone). */
  void abort() {
    for (Subjob x : inOut) {
      x.outIndex = -1;
    }
    inOut.clear();
    out = null;
  }

  /** The segments restricted to [s, e). */
  static List<CostSegment> clip(List<CostSegment> segs, long s, long e) {
    List<CostSegment> o = new ArrayList<>(segs.size());
    for (CostSegment c : segs) {
      long a = Math.max(s, c.range().start());
      long b = Math.min(e, c.range().end());
      if (a < b) {
        o.add(a == c.range().start() && b == c.range().end() ? c
            : new CostSegment(new EventSpan(a, b), c.source(), c.peer(), c.secondsPerEvent(),
                c.cacheAfterRead()));
      }
    }
    return o;
  }
}
