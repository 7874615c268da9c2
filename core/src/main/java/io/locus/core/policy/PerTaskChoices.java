package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;

/**
 * The per-task answers of the data-diffusion policies ({@link ChoosesPerTask}), each the policy's
 * own rule applied to one task: FA and FCA the first free node, MCU the free node holding the most
 * of the task's bytes, MCH a best holder or a wait for one (spec D6). Each visits the task's
 * holders only (plus, for a one-input file on many holders, the free pool: issue 25's walk).
 */
final class PerTaskChoices {
  private PerTaskChoices() {}

  /** FA, FCA: the first free node, never a wait. */
  static ChoosesPerTask.TaskChooser firstFree(PoolState s, String label, boolean caching) {
    return new Base(s, label, caching) {
      @Override
      public ChoosesPerTask.Choice choose(Task t) {
        return ChoosesPerTask.Choice.go(s.firstFree());
      }

      @Override
      public NodeView now(Task t) {
        return s.firstFree();
      }
    };
  }

  /** MCU: the free node with the most of t's bytes (a free slot before a queue position). */
  static ChoosesPerTask.TaskChooser mcu(PoolState s, String label) {
    return new Base(s, label, true) {
      @Override
      public ChoosesPerTask.Choice choose(Task t) {
        return ChoosesPerTask.Choice.go(now(t));
      }
    };
  }

  /** MCH: a best holder that can take t now, any node when none holds t, else wait (D6). */
  static ChoosesPerTask.TaskChooser mch(PoolState s, double now, String label, String rule) {
    return new Base(s, label, true) {
      @Override
      public ChoosesPerTask.Choice choose(Task t) {
        long max = s.maxCached(t);
        if (max == 0) {
          return ChoosesPerTask.Choice.go(s.firstFree());
        }
        NodeView best = DataAwareDispatch.bestFreeHolder(s, t, max, false);
        if (best != null) {
          return ChoosesPerTask.Choice.go(best);
        }
        DataWait w = DataWaits.bestHolder(s, t, now, rule);
        return w == null ? ChoosesPerTask.Choice.go(now(t))
            : ChoosesPerTask.Choice.hold(w, Double.POSITIVE_INFINITY);
      }
    };
  }

  /** The shared part: MCU's node for a task whose wait is over, the label and the caching. */
  private abstract static class Base implements ChoosesPerTask.TaskChooser {
    final PoolState s;
    private final String label;
    private final boolean caching;

    Base(PoolState s, String label, boolean caching) {
      this.s = s;
      this.label = label;
      this.caching = caching;
    }

    @Override
    public NodeView now(Task t) {
      NodeView first = s.firstFree();
      NodeView best = DataAwareDispatch.bestFreeHolder(s, t, -1, first.freeSlots() > 0);
      return best != null ? best : first;
    }

    @Override
    public String label() {
      return label;
    }

    @Override
    public boolean caching() {
      return caching;
    }
  }
}
