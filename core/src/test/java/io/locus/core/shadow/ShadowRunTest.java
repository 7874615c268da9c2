package io.locus.core.shadow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.state.PoolState;
import io.locus.core.state.StateJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules of a shadow policy's model (issue 16, item 3). */
class ShadowRunTest {
  static final long GB = 1_000_000_000L;
  final TransferRates rates = new TransferRates();

  /** A real pool with two 1-slot nodes; n1 caches file f (2 GB). */
  static PoolState realPool() {
    PoolState real = new PoolState(StateJournal.NONE, 3);
    real.registerNode("n1", 1, 10 * GB, null, 0);
    real.registerNode("n2", 1, 10 * GB, null, 0);
    real.applyCacheDelta("n1", 1, Map.of("f", 2 * GB), List.of());
    return real;
  }

  static Task task(String id, long seq, double submit, double compute, InputFile... in) {
    return Task.of(id, seq, submit, compute, in);
  }

  ShadowRun shadow(String policy) {
    return ShadowRun.startingFrom(realPool(), Policies.create(policy, Map.of()), rates, 3, 0);
  }

  @Test
  void aTaskIsPredictedToEndAfterItsComputeAndItsReadsAtTheirSourcesRates() {
    ShadowRun mch = shadow("MCH");
    List<ShadowPlacement> p = mch.jobArrived(task("t1", 1, 10, 5, new InputFile("f", 2 * GB, 0,
        null, null)), 10);
    assertThat(p).hasSize(1);
    ShadowPlacement only = p.get(0);
    assertThat(only.node()).isEqualTo("n1"); // where f is cached
    assertThat(only.localBytes()).isEqualTo(2 * GB);
    assertThat(only.start()).isEqualTo(10);
    assertThat(only.predictedEnd()).isCloseTo(10 + 5 + 2 * GB / rates.local(), within(1e-9));
    assertThat(mch.score().completed()).isZero();

    mch.advance(only.predictedEnd());
    ShadowScore s = mch.score();
    assertThat(s.completed()).isEqualTo(1);
    assertThat(s.meanResponseSeconds()).isCloseTo(only.predictedEnd() - 10, within(1e-9));
    assertThat(s.bytesToMove()).isZero();
    assertThat(s.bytesLocal()).isEqualTo(2 * GB);
  }

  @Test
  void aFreedSlotTakesTheNextQueuedTaskAtThePredictedEndNotLater() {
    ShadowRun fa = shadow("FA");
    List<ShadowPlacement> all = new ArrayList<>();
    all.addAll(fa.jobArrived(task("a", 1, 0, 100), 0));
    all.addAll(fa.jobArrived(task("b", 2, 0, 100), 0));
    all.addAll(fa.jobArrived(task("c", 3, 0, 100), 0));
    assertThat(all).hasSize(2); // two slots
    all.addAll(fa.advance(500));
    assertThat(all).hasSize(3);
    assertThat(all.get(2).taskId()).isEqualTo("c");
    assertThat(all.get(2).start()).isEqualTo(100); // when the first slot freed, not at 500
    assertThat(fa.score().completed()).isEqualTo(3);
    assertThat(fa.score().meanResponseSeconds()).isCloseTo((100 + 100 + 200) / 3.0, within(1e-9));
    // busy: 2 slots for 100 s, 1 slot for 100 s, then idle to 500 s, over 2 slots x 500 s
    assertThat(fa.score().utilisation()).isCloseTo(300.0 / 1000, within(1e-9));
  }

  @Test
  void stagedInputsEnterTheModelledCacheSoTheNextReaderIsLocal() {
    ShadowRun mch = shadow("MCH");
    InputFile g = new InputFile("g", GB, 0, null, null);
    ShadowPlacement first = mch.jobArrived(task("t1", 1, 0, 0, g), 0).get(0);
    assertThat(first.storageBytes()).isEqualTo(GB);
    mch.advance(first.predictedEnd());
    ShadowPlacement second = mch.jobArrived(task("t2", 2, 100, 0, g), 100).get(0);
    assertThat(second.node()).isEqualTo(first.node());
    assertThat(second.localBytes()).isEqualTo(GB);
    assertThat(mch.score().bytesToMove()).isEqualTo(GB);
  }

  @Test
  void aCancelledJobLeavesTheShadowItsSlotTakesTheNextAndNothingCompletes() {
    ShadowRun fa = shadow("FA");
    List<ShadowPlacement> all = new ArrayList<>();
    all.addAll(fa.jobArrived(task("a", 1, 0, 100), 0));
    all.addAll(fa.jobArrived(task("b", 2, 0, 100), 0));
    all.addAll(fa.jobArrived(task("c", 3, 0, 100), 0));
    all.addAll(fa.jobArrived(task("d", 4, 0, 100), 0));
    assertThat(all).hasSize(2);
    assertThat(fa.jobCancelled("d", 5)).as("queued: nothing to place").isEmpty();
    List<ShadowPlacement> next = fa.jobCancelled(all.get(0).taskId(), 10);
    assertThat(next).singleElement().satisfies(p -> {
      assertThat(p.taskId()).isEqualTo("c");
      assertThat(p.start()).isEqualTo(10);
    });
    fa.advance(1_000);
    assertThat(fa.score().completed()).as("b and c, not a, not d").isEqualTo(2);
    assertThat(fa.score().queueLength()).isZero();
  }

  @Test
  void aNodeThatLeavesSendsItsShadowTasksBackAndTheirOldEndsAreIgnored() {
    ShadowRun fa = shadow("FA");
    ShadowPlacement p = fa.jobArrived(task("a", 1, 0, 100), 0).get(0);
    List<ShadowPlacement> after = fa.nodeLeft(p.node(), 10);
    assertThat(after).singleElement().satisfies(q -> {
      assertThat(q.taskId()).isEqualTo("a");
      assertThat(q.node()).isNotEqualTo(p.node());
      assertThat(q.start()).isEqualTo(10);
    });
    fa.advance(105); // the first attempt's predicted end passes: not a completion
    assertThat(fa.score().completed()).isZero();
    fa.advance(110);
    assertThat(fa.score().completed()).isEqualTo(1);
  }

  @Test
  void twoShadowsOfOnePolicyOnTheSameInputsDecideTheSame() {
    List<String> a = run(shadow("GCC"));
    List<String> b = run(shadow("GCC"));
    assertThat(a).isNotEmpty().isEqualTo(b);
  }

  private static List<String> run(ShadowRun s) {
    List<String> log = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      InputFile f = new InputFile("file-" + (i % 7), (i % 5 + 1) * GB / 4, 0, null, null);
      for (ShadowPlacement p : s.jobArrived(task("t" + i, i + 1, i * 3, 2, f), i * 3)) {
        log.add(p.taskId() + "@" + p.node() + ":" + p.start() + "-" + p.predictedEnd());
      }
    }
    for (ShadowPlacement p : s.advance(10_000)) {
      log.add(p.taskId() + "@" + p.node() + ":" + p.start() + "-" + p.predictedEnd());
    }
    log.add(s.score().toString());
    return log;
  }

  @Test
  void theSlotHoldOverheadIsLearnedAndAddedToEveryPrediction() {
    TransferRates r = new TransferRates(0.01);
    assertThat(r.seconds(100, 0, 0, 0)).isCloseTo(1.0, within(1e-9)); // 100 s of work at 1/100
    r.observeOverhead(0.5, 0.2); // held 0.5 s, ran 0.2 s
    assertThat(r.overhead()).isCloseTo(0.3, within(1e-9)); // the first sample is taken whole
    r.observeOverhead(0.2, 0.2);
    assertThat(r.overhead()).isCloseTo(0.27, within(1e-9));
    assertThat(r.seconds(100, 0, 0, 0)).isCloseTo(1.27, within(1e-9));
    r.observeOverhead(0.1, 0.2); // a hold shorter than the run counts as no overhead, not less
    assertThat(r.overhead()).isCloseTo(0.243, within(1e-9));
  }

  @Test
  void ratesAreLearnedFromSingleSourceCompletionsOnly() {
    TransferRates r = new TransferRates();
    double before = r.storage();
    // 1 GB from storage in 10 s after 2 s of compute: observed 125 MB/s... at 12 s total
    assertThat(r.observe(12, 2, 0, 0, GB)).isTrue();
    assertThat(r.storage()).isCloseTo(0.9 * before + 0.1 * (GB / 10.0), within(1e-6));
    assertThat(r.observe(12, 2, GB, 0, GB)).isFalse(); // mixed sources teach nothing
    assertThat(r.observe(1, 2, 0, GB, 0)).isFalse(); // shorter than its compute
    assertThat(r.observations()).isEqualTo(1);
  }
}
