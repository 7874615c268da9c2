package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The job ledger: the duplicate rule, and expiry by buckets that keeps the state bounded. */
class JobLedgerTest {
  private static final long RETENTION = 128_000; // buckets of 1000 ms

  private final HeapMapState<String, Long> arrivals = new HeapMapState<>();
  private final HeapMapState<Long, Integer> buckets = new HeapMapState<>();
  private final HeapMapState<String, String> entries = new HeapMapState<>();
  private final HeapMapState<String, String> workflows = new HeapMapState<>();

  private JobLedger ledger() {
    return new JobLedger(arrivals, buckets, entries, workflows, RETENTION);
  }

  /** A workflow's job keeps its workflow for the window, after it finished, with its id. */
  @Test
  void aWorkflowJobsWorkflowIsKeptForTheWindowAndExpiresWithItsId() throws Exception {
    JobLedger l = ledger();
    l.record("w", 1_000, "wf-1");
    l.record("plain", 1_000, null);
    assertThat(l.workflowOf("w")).isEqualTo("wf-1");
    assertThat(ledger().workflowOf("w")).as("after a restart").isEqualTo("wf-1");
    assertThat(l.workflowOf("plain")).isNull();
    assertThat(workflows.map).containsOnlyKeys("w");

    // out of the window but not yet expired: the id arrives again, outside workflows
    l.record("w", 129_500, null);
    assertThat(l.workflowOf("w")).as("not the earlier arrival's workflow").isNull();
    l.record("plain", 129_500, "wf-2");
    l.expire(130_000); // bucket 1 leaves; the later arrivals stay
    assertThat(l.workflowOf("plain")).isEqualTo("wf-2");
    l.expire(129_999 + RETENTION);
    assertThat(workflows.map).isEmpty();
    assertThat(arrivals.map).isEmpty();
  }

  @Test
  void anIdIsADuplicateForExactlyTheRetentionWindow() throws Exception {
    JobLedger l = ledger();
    l.record("j", 5_500, null);
    assertThat(l.arrivedWithin("j", 5_500)).isEqualTo(5_500L);
    assertThat(l.arrivedWithin("j", 5_500 + RETENTION - 1)).isEqualTo(5_500L);
    assertThat(l.arrivedWithin("j", 5_500 + RETENTION)).isNull();
    assertThat(l.arrivedWithin("other", 5_500)).isNull();
  }

  @Test
  void expiredBucketsLeaveTheStateAndALaterArrivalIsKept() throws Exception {
    JobLedger l = ledger();
    for (int i = 0; i < 50; i++) {
      l.record("old-" + i, 1_000 + i, null); // bucket 1: [1000, 2000)
    }
    l.record("again", 1_999, null);
    l.record("young", 2_000, null); // bucket 2
    l.expire(128_998); // bucket 1's last ms is still inside the window
    assertThat(arrivals.map).hasSize(52);
    l.record("again", 129_999, null); // arrives again, bucket 129
    l.expire(130_000); // bucket 1 is out of the window, bucket 2 is not
    assertThat(arrivals.map).containsOnlyKeys("again", "young");
    assertThat(arrivals.get("again")).isEqualTo(129_999L);
    assertThat(buckets.map).containsOnlyKeys(2L, 129L);
    assertThat(entries.map).hasSize(2);
    // a restart (a new ledger on the same state) still knows the ids
    assertThat(ledger().arrivedWithin("again", 130_001)).isNotNull();
  }

  @Test
  void theExpiryRunsOncePerBucketOfClockAndNeverDecidesADuplicate() throws Exception {
    JobLedger l = ledger();
    l.record("a", 0, null);
    l.expire(128_000); // bucket 128: bucket 0 ends at 999, still inside the window
    assertThat(arrivals.map).containsKey("a");
    l.expire(128_999); // same bucket of clock: not read again
    assertThat(arrivals.map).containsKey("a");
    assertThat(l.arrivedWithin("a", 128_999)).as("but no longer a duplicate").isNull();
    l.expire(129_000);
    assertThat(arrivals.map).isEmpty();
    assertThat(buckets.map).isEmpty();
    assertThat(entries.map).isEmpty();
  }

  @Test
  void anArrivalWritesTwoEntriesAndARestoredLedgerNumbersOnWithoutGaps() throws Exception {
    JobLedger l = ledger();
    l.record("first", 3_000, null);
    int writes = arrivals.map.size() + entries.map.size();
    for (int i = 0; i < 99; i++) {
      l.record("j" + i, 3_000 + i, null);
    }
    // one id and one bucket entry per arrival; the bucket map is written once per bucket
    assertThat(arrivals.map.size() + entries.map.size()).isEqualTo(writes + 2 * 99);
    assertThat(buckets.map).containsOnlyKeys(3L);
    for (int restored = 100; restored < 140; restored++) {
      JobLedger again = ledger(); // a restore: the next index is found in state
      again.record("r" + restored, 3_500, null);
      assertThat(entries.get(3L + "" + PoolStore.SEP + restored)).isEqualTo("r" + restored);
    }
    assertThat(entries.map).hasSize(140);
    JobLedger last = ledger();
    last.expire(3_999 + RETENTION); // bucket 3 leaves the window: every id with it
    assertThat(entries.map).isEmpty();
    assertThat(arrivals.map).isEmpty();
    assertThat(buckets.map).isEmpty();
  }
}
