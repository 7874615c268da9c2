package io.locus.sim.metrics;

import java.util.List;

/**
 * What a run measured per queue of its pool's queue tree (issue 24), against the fair shares the
 * core's {@code FairShare} gives the same loads. Shares are of the pool's registered slots;
 * averages are over virtual time (exact: the loads are constant between events), each queue's over
 * the time it was <b>active</b> (running or pending work). See {@link QueueRecorder} for the
 * definitions.
 *
 * @param queues one entry per leaf queue that ever held work, by name
 * @param contendedSeconds time with at least two active queues (where shares and Jain's index
 *     are measured)
 * @param meanJain Jain's index of the queues' running / fair-share ratios, time-averaged over the
 *     contended time (1 = every active queue at the same fraction of its fair share; NaN if never
 *     contended)
 * @param minJain its lowest value while contended
 * @param meanShareError the mean over queues of their {@link Queue#meanShareError}
 * @param maxShareError the largest {@link Queue#meanShareError}
 * @param refused jobs refused because the tree has no leaf of their queue (never run; counted
 *     as failed in the run's task accounting)
 * @param firstRefusal the first refused job and why, or null
 * @param series per whole second: each queue's running slots and fair share, and Jain's index
 */
public record QueueMetrics(List<Queue> queues, double contendedSeconds, double meanJain,
    double minJain, double meanShareError, double maxShareError, long refused,
    String firstRefusal, QueueSeries series) {

  /**
   * One leaf queue.
   *
   * @param guarantee its configured guaranteed slots
   * @param activeSeconds time it held running or pending work
   * @param contendedSeconds of those, time another queue was active too
   * @param meanShare its running slots / pool slots, time-averaged over its contended time
   * @param meanFairShare its fair share / pool slots, likewise
   * @param meanShareError |running − fair share| / pool slots, likewise (0.05 = 5 points of the
   *     pool off its fair share on average; NaN: never contended)
   * @param starvedEpisodes times it fell (or arrived) below its guarantee with work pending
   * @param firstStarvedAt when the first such episode began (NaN: never starved)
   * @param firstToGuarantee how long the first episode lasted: the time for the queue to reach
   *     its guarantee (or run all its pending work) after it first was owed slots
   * @param maxToGuarantee the longest episode
   * @param starvedSeconds all episodes together
   * @param openAtEnd whether an episode was still open when the run ended (its duration is to the
   *     end, a lower bound)
   * @param completed jobs of the queue that completed
   * @param meanResponse completion − release of its completed jobs, seconds
   * @param bytes bytes its tasks read: local, peer, storage
   * @param preempted its attempts stopped by a preemption (each re-queued, not failed)
   * @param lostSlotSeconds the slot-seconds those attempts had run, start to stop (the grace
   *     included): work lost
   */
  public record Queue(String name, int guarantee, double weight, double activeSeconds,
      double contendedSeconds, double meanShare, double meanFairShare, double meanShareError, int starvedEpisodes,
      double firstStarvedAt, double firstToGuarantee, double maxToGuarantee,
      double starvedSeconds, boolean openAtEnd, long completed, double meanResponse,
      double p95Response, double p99Response, long[] bytes, long preempted,
      double lostSlotSeconds) {

    public long bytesRead() {
      return bytes[0] + bytes[1] + bytes[2];
    }

    /** Bytes from {@code source} (0 local, 1 peer, 2 storage) over all bytes read; NaN if none. */
    public double byteShare(int source) {
      long n = bytesRead();
      return n == 0 ? Double.NaN : (double) bytes[source] / n;
    }
  }

  /**
   * Per whole second k (the state just before the events of k, as the run's other series):
   * {@code running[q][k]} and {@code fairShare[q][k]} in slots for queue {@code names.get(q)},
   * {@code jain[k]} (NaN when fewer than two queues were active) and the pool's {@code slots[k]}.
   */
  public record QueueSeries(List<String> names, double[][] running, double[][] fairShare,
      double[] jain, double[] slots) {
    public int length() {
      return jain.length;
    }
  }

  /** Attempts preempted, over every queue. */
  public long preempted() {
    long n = 0;
    for (Queue q : queues) {
      n += q.preempted();
    }
    return n;
  }

  /** Slot-seconds of work lost to preemption, over every queue. */
  public double lostSlotSeconds() {
    double s = 0;
    for (Queue q : queues) {
      s += q.lostSlotSeconds();
    }
    return s;
  }

  /** Every measure as text (series included): equal for equal runs. */
  public String fingerprint() {
    StringBuilder sb = new StringBuilder();
    sb.append(contendedSeconds).append('|').append(meanJain).append('|').append(minJain)
        .append('|').append(meanShareError).append('|').append(maxShareError).append('|')
        .append(refused).append('|').append(firstRefusal);
    for (Queue q : queues) {
      sb.append('|').append(q.name()).append(',').append(q.activeSeconds()).append(',')
          .append(q.meanShare()).append(',').append(q.meanFairShare()).append(',')
          .append(q.meanShareError()).append(',').append(q.starvedEpisodes()).append(',')
          .append(q.firstToGuarantee()).append(',').append(q.maxToGuarantee()).append(',')
          .append(q.completed()).append(',').append(q.meanResponse()).append(',')
          .append(q.p99Response()).append(',').append(java.util.Arrays.toString(q.bytes()))
          .append(',').append(q.preempted()).append(',').append(q.lostSlotSeconds());
    }
    sb.append('|').append(java.util.Arrays.toString(series.jain()));
    for (double[] r : series.running()) {
      sb.append('|').append(java.util.Arrays.toString(r));
    }
    return sb.toString();
  }

  /** The entry of queue {@code name}, or null. */
  public Queue queue(String name) {
    for (Queue q : queues) {
      if (q.name().equals(name)) {
        return q;
      }
    }
    return null;
  }
}
