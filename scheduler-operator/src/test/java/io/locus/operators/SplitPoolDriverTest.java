package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The driver alone (no Flink) at the spec's scale: 10 nodes with 100 GB caches, jobs of tens of
 * thousands of events over a 2 TB data space. Its stored entries restore to an identical driver
 * at any point (restored and saved again, it stores the very same entries), and it prints the
 * largest number of entries it held.
 */
class SplitPoolDriverTest {
  private static final String POOL = "cern";

  /** Gives the driver one input at its time, as the operator would; no input is rejected. */
  static void apply(SplitPoolDriver d, PoolMeta meta, SplitCluster c, SchedulerInput in)
      throws Exception {
    Object e = in.getEvent();
    long t = e instanceof JobSubmitted j ? j.getSubmitTimeMs()
        : e instanceof TaskEvent te ? te.getTimeMs() : ((NodeReport) e).getTimeMs();
    meta.setClockMs(Math.max(meta.getClockMs(), t));
    PoolOutput o = e instanceof JobSubmitted j ? d.onJob(j, meta)
        : e instanceof TaskEvent te ? d.onTaskEvent(te, meta) : d.onNodeReport((NodeReport) e, meta);
    assertThat(o.rejection()).isNull();
    c.saw(o.decisions());
  }

  /** Every entry of the store, table by table, sorted by key. */
  static List<List<Map.Entry<String, ?>>> contents(SplitStore s) throws Exception {
    List<List<Map.Entry<String, ?>>> all = new ArrayList<>();
    for (SplitStore.Table<?> t : List.of(s.driver, s.jobInfo, s.runs, s.pool, s.nodes, s.cache,
        s.jobs, s.subjobs, s.memory, s.finished)) {
      List<Map.Entry<String, ?>> l = new ArrayList<>(t.entries());
      l.sort((a, b) -> a.getKey().compareTo(b.getKey()));
      all.add(l);
    }
    return all;
  }

  @Test
  void aCernScalePoolRestoresIdenticallyFromItsEntries() throws Exception {
    Map<String, String> params = Map.of("dataset", "lhcb");
    SplitStore store = SplitStore.inMemory();
    SplitPoolDriver d = SplitPoolDriver.create(POOL, "OUT_OF_ORDER", params, List.of())
        .attach(store, null);
    d.save();
    PoolMeta meta = PoolMeta.newBuilder().setEpoch(1).setNextSeq(1).setPolicy("OUT_OF_ORDER")
        .setParams(params).build();
    SplitCluster c = new SplitCluster(POOL, "lhcb", 40, 1_000_000L);
    for (int i = 0; i < 10; i++) {
      c.register(String.format("n%02d", i), 1_000_000L);
    }
    SplittableRandom rnd = new SplittableRandom(3);
    long t = 1_000_000L;
    long events = 0;
    for (int j = 0; j < 40; j++) {
      long len = 10_000 + rnd.nextInt(60_000);
      long start = rnd.nextInt(4) == 0 ? rnd.nextInt(3_000_000)
          : 666_666 + rnd.nextInt(166_666);
      c.submit("j" + j, start, start + len, t);
      events += len;
      t += 600_000 + rnd.nextInt(3_600_000); // 10 min .. 70 min apart
    }
    int inputs = 0;
    int maxEntries = 0;
    SchedulerInput in;
    while ((in = c.next()) != null) {
      apply(d, meta, c, in);
      inputs++;
      if (inputs % 25 == 0) {
        List<List<Map.Entry<String, ?>>> stored = contents(store);
        maxEntries = Math.max(maxEntries, stored.stream().mapToInt(List::size).sum());
        SplitPoolDriver r = SplitPoolDriver.restore(POOL, "OUT_OF_ORDER", params, store);
        SplitStore again = SplitStore.inMemory();
        r.attach(again, null).save();
        stored.set(stored.size() - 1, List.of()); // finished ids are the operator's, not saved
        // compared as text: Avro's record equality takes NaN (a held subjob's dispatch) as unequal
        assertThat(contents(again).toString()).isEqualTo(stored.toString());
        d = r.attach(store, null); // carry on with the restored driver: it must decide the same
      }
    }
    assertThat(c.exactlyOnceProblem()).isNull();
    assertThat(c.refusals).isEmpty();
    assertThat(d.activeJobs()).isZero();
    assertThat(d.jobsFinished()).isEqualTo(40);
    assertThat(meta.getBytesLocal() + meta.getBytesPeer() + meta.getBytesStorage())
        .isEqualTo(events * 600_000L);
    System.out.printf("CERN-scale split pool: %d inputs, %d placements, %d shrinks, %d suspends; "
        + "at most %d entries stored%n", inputs, c.placements, c.shrinks, c.suspends, maxEntries);
  }
}
