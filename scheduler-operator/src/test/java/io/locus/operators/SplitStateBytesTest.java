package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The state a split pool writes per input (issue 11), at the spec's scale: 10 nodes with 100 GB
 * caches, a 3,333,333-event data space, jobs drawn as spec §4's CernEventJobs (hot regions,
 * Erlang-4 lengths of mean 40,000 events, Poisson arrivals at {@code split.bytes.rate} jobs/h),
 * run by {@link SplitCluster}'s agents through {@link SplitPoolDriver} without Flink, with one
 * agent heartbeat an hour (period ends and starvation timers fire on input times). Every entry
 * written to the store is counted as Flink's serializers write it: a put's map key and value, a
 * removal's key (not the backend's own key prefix of key group, pool and namespace). The finished
 * job ids are left out (they are written the same way before and after). It prints the mean,
 * median, 99th percentile and largest bytes per input and a digest of the decisions, so a run of
 * main's code on the same inputs (whole snapshot per input) can be compared: docs/performance.md.
 */
class SplitStateBytesTest {
  private static final String POOL = "cern";
  private static final long D = 3_333_333;
  private static final long T0 = 1_000_000L;
  private static final int JOBS = Integer.getInteger("split.bytes.jobs", 120);
  private static final double RATE = Double.parseDouble(
      System.getProperty("split.bytes.rate", "1.5"));

  /** Tables in memory that count the bytes a Flink state backend would be given. */
  private static final class Counting implements SplitStore.Tables {
    private final SerializerConfigImpl config = new SerializerConfigImpl();
    private final TypeSerializer<String> keys = Types.STRING.createSerializer(config);
    long bytes;
    long entries;

    @Override
    public <V> SplitStore.Table<V> table(String name, TypeInformation<V> type) {
      SplitStore.Table<V> t = SplitStore.inMemoryTable();
      if (name.equals("split-finished-jobs")) {
        return t;
      }
      TypeSerializer<V> values = type.createSerializer(config);
      return new SplitStore.Table<>() {
        @Override
        public void put(String key, V value) throws Exception {
          bytes += size(keys, key) + size(values, value);
          entries++;
          t.put(key, value);
        }

        @Override
        public void remove(String key) throws Exception {
          bytes += size(keys, key);
          entries++;
          t.remove(key);
        }

        @Override
        public boolean contains(String key) throws Exception {
          return t.contains(key);
        }

        @Override
        public V get(String key) throws Exception {
          return t.get(key);
        }

        @Override
        public List<Map.Entry<String, V>> entries() throws Exception {
          return t.entries();
        }

        @Override
        public void clear() throws Exception {
          t.clear();
        }
      };
    }

    private static <T> long size(TypeSerializer<T> s, T v) throws Exception {
      DataOutputSerializer out = new DataOutputSerializer(256);
      s.serialize(v, out);
      return out.length();
    }
  }

  /** Spec §4's NEXT_JOB and Poisson arrivals: {start, end, arrival ms after T0} per job. */
  static List<long[]> cernEventJobs(long seed, int n, double perHour) {
    SplittableRandom r = new SplittableRandom(seed);
    List<long[]> jobs = new ArrayList<>(n);
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += -Math.log(1 - r.nextDouble()) * 3600 / perHour;
      double u = r.nextDouble();
      double s;
      if (u < 0.25) {
        s = 0.20 * D + r.nextDouble() * 0.05 * D;
      } else if (u < 0.50) {
        s = 0.60 * D + r.nextDouble() * 0.05 * D;
      } else {
        s = r.nextDouble() * 0.90 * D;
        s += s >= 0.20 * D ? 0.05 * D : 0;
        s += s >= 0.60 * D ? 0.05 * D : 0;
      }
      double gamma = 0;
      for (int k = 0; k < 4; k++) {
        gamma += -Math.log(1 - r.nextDouble()) * 10_000;
      }
      long len = Math.max(10, Math.round(gamma));
      long start = Math.min((long) Math.floor(s), D - len);
      jobs.add(new long[] {start, start + len, Math.round(t * 1000)});
    }
    return jobs;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"OUT_OF_ORDER", "DELAYED"})
  void anInputWritesWhatItChanged(String policy) throws Exception {
    Map<String, String> params = Map.of("dataset", "lhcb");
    Counting counting = new Counting();
    SplitStore store = new SplitStore(counting);
    SplitPoolDriver d = SplitPoolDriver.create(POOL, policy, params, List.of())
        .attach(store, null);
    d.save();
    PoolMeta meta = PoolMeta.newBuilder().setEpoch(1).setNextSeq(1).setPolicy(policy)
        .setParams(params).build();
    SplitCluster c = new SplitCluster(POOL, "lhcb", 40, T0);
    for (int i = 0; i < 10; i++) {
      c.register(String.format("n%02d", i), T0);
    }
    List<long[]> jobs = cernEventJobs(11, JOBS, RATE);
    for (int j = 0; j < jobs.size(); j++) {
      c.submit("j" + j, jobs.get(j)[0], jobs.get(j)[1], T0 + jobs.get(j)[2]);
    }
    long last = jobs.get(jobs.size() - 1)[2];
    for (long h = 3_600_000L; h < last + 10 * 86_400_000L; h += 3_600_000L) {
      c.heartbeat("n00", T0 + h);
    }
    List<Long> perInput = new ArrayList<>();
    long writes = 0;
    long stateBytes = 0;
    int stateSamples = 0;
    SchedulerInput in;
    while ((in = c.next()) != null) {
      long before = counting.bytes;
      long entriesBefore = counting.entries;
      SplitPoolDriverTest.apply(d, meta, c, in);
      perInput.add(counting.bytes - before);
      writes += counting.entries - entriesBefore;
      if (perInput.size() % 100 == 0) { // the whole state, as one save would write it
        Counting whole = new Counting();
        d.attach(new SplitStore(whole), null).save();
        d.attach(store, null);
        stateBytes += whole.bytes;
        stateSamples++;
      }
    }
    assertThat(c.exactlyOnceProblem()).isNull();
    assertThat(c.refusals).isEmpty();
    assertThat(d.jobsFinished()).isEqualTo(JOBS);
    long[] b = perInput.stream().mapToLong(Long::longValue).sorted().toArray();
    double mean = Arrays.stream(b).average().orElse(0);
    double state = (double) stateBytes / stateSamples;
    assertThat(mean).as("an input writes a small part of the state").isLessThan(state / 4);
    System.out.printf("split state bytes per input, %s, %d jobs at %.2f jobs/h: %d inputs, mean "
        + "%.0f, p50 %d, p99 %d, max %d bytes; %.2f entries written per input; whole state "
        + "%.0f bytes on average; %d placements, %d shrinks, %d suspends; decisions %s%n", policy,
        JOBS, RATE, b.length, mean, b[(int) Math.ceil(0.50 * b.length) - 1],
        b[(int) Math.ceil(0.99 * b.length) - 1], b[b.length - 1],
        (double) writes / b.length, state, c.placements, c.shrinks, c.suspends, digest(c.log));
  }

  static String digest(List<String> log) throws Exception {
    byte[] h = MessageDigest.getInstance("SHA-256").digest(String.join("\n", log)
        .getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(h, 0, 8);
  }
}
