package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The driver alone (no Flink) at the spec's scale: 10 nodes with 100 GB caches, jobs of tens of
 * thousands of events over a 2 TB data space. Its snapshot restores to an identical driver at any
 * point, and it prints the snapshot's size, the state the operator rewrites after each input
 * (docs/architecture.md).
 */
class SplitPoolDriverTest {
  private static final String POOL = "cern";

  private static void apply(SplitPoolDriver d, PoolMeta meta, SplitCluster c, SchedulerInput in)
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

  @Test
  void aCernScalePoolSnapshotsAndRestoresIdentically() throws Exception {
    Map<String, String> params = Map.of("dataset", "lhcb");
    SplitPoolDriver d = SplitPoolDriver.create(POOL, "OUT_OF_ORDER", params, List.of());
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
    int maxBytes = 0;
    SchedulerInput in;
    while ((in = c.next()) != null) {
      apply(d, meta, c, in);
      inputs++;
      if (inputs % 25 == 0) {
        byte[] snap = d.snapshot();
        maxBytes = Math.max(maxBytes, snap.length);
        SplitPoolDriver r = SplitPoolDriver.restore(POOL, "OUT_OF_ORDER", params, snap);
        assertThat(r.snapshot()).isEqualTo(snap);
        d = r; // carry on with the restored driver: it must decide the same
      }
    }
    assertThat(c.exactlyOnceProblem()).isNull();
    assertThat(c.refusals).isEmpty();
    assertThat(d.activeJobs()).isZero();
    assertThat(d.jobsFinished()).isEqualTo(40);
    assertThat(meta.getBytesLocal() + meta.getBytesPeer() + meta.getBytesStorage())
        .isEqualTo(events * 600_000L);
    System.out.printf("CERN-scale split pool: %d inputs, %d placements, %d shrinks, %d suspends; "
        + "largest snapshot %d bytes%n", inputs, c.placements, c.shrinks, c.suspends, maxBytes);
  }
}
