package io.locus.core.split;

import java.util.List;

/**
 * One entry of a split policy's own memory ({@link SplitJournal}), beyond jobs, subjobs and
 * nodes: what a policy remembers that the pool state does not say. Keyed by {@link #key()}.
 */
public sealed interface PolicyEntry {
  /** The entry's key, unique within the pool. */
  String key();

  /**
   * One time in a policy's time queue: OUT_OF_ORDER's starvation timers ({@code starve}),
   * ADAPTIVE_DELAY's arrivals in the rate window ({@code window}).
   *
   * @param queue the time queue
   * @param seq position in it (increasing from front to back)
   * @param time model seconds
   */
  record TimeMark(String queue, long seq, double time) implements PolicyEntry {
    @Override
    public String key() {
      return queue + "/" + seq;
    }
  }

  /**
   * A DELAYED meta-subjob waiting in Q_meta: the pieces of one stripe of one period.
   *
   * @param rank position in Q_meta (increasing from front to back)
   * @param arrival the earliest arrival of its pieces' jobs
   * @param stripeStart where its stripe starts
   * @param pieces its subjobs, in running order (pieces that vanished since are skipped)
   */
  record MetaSubjob(long rank, double arrival, long stripeStart, List<String> pieces)
      implements PolicyEntry {
    public MetaSubjob {
      pieces = List.copyOf(pieces);
    }

    @Override
    public String key() {
      return "meta/" + rank;
    }
  }

  /**
   * ADAPTIVE_DELAY's choice of period.
   *
   * @param period the period d in force (seconds)
   * @param lowerVotes consecutive evaluations that asked for a shorter period
   * @param nextEvaluation when it evaluates next (model seconds)
   */
  record AdaptivePeriod(double period, int lowerVotes, double nextEvaluation)
      implements PolicyEntry {
    @Override
    public String key() {
      return "adaptive";
    }
  }
}
