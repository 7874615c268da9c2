package io.locus.core.policy;

import static io.locus.core.policy.PolicyParams.doubleParam;
import static io.locus.core.policy.PolicyParams.fraction;
import static io.locus.core.policy.PolicyParams.intParam;
import static io.locus.core.policy.PolicyParams.longParam;
import static io.locus.core.policy.PolicyParams.partitioner;
import static io.locus.core.policy.PolicyParams.positive;

import io.locus.core.hybrid.ComplementaryPlace;
import io.locus.core.policy.PolicyDescriptor.CacheModel;
import io.locus.core.policy.PolicyDescriptor.Family;
import io.locus.core.policy.PolicyDescriptor.Param;
import io.locus.core.split.SplitPolicies;
import io.locus.core.split.SplitPolicy;
import io.locus.core.staging.CostModel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Every policy Locus has, one line each. Everything else that lists policies is derived from here
 * (see docs/policies.md, "Adding a policy"): {@link Policies} (names, parameters, create), the
 * split family's names and parameters ({@link io.locus.core.split.SplitParams}), the simulators'
 * lists (by cache model), the operator's staging set, the help texts' candidates ({@link
 * FileNames} and friends), the tests' parameter sources and the helm schema check.
 *
 * <p>The order is the order of every derived list (help texts, error messages, experiment
 * tables): data diffusion, Khanna, hybrid, Locus's own, then the split family.
 */
public final class PolicyRegistry {
  private PolicyRegistry() {}

  // --- parameters shared by families (their defaults are the constants the factories read)
  private static final Param WINDOW = new Param("window", num(Policies.DEFAULT_WINDOW),
      "an integer >= 1 (queue positions scanned)", "0");
  private static final Param MAX_QUEUE_DEPTH = new Param(Policies.MAX_QUEUE_DEPTH,
      num(Policies.DEFAULT_MAX_QUEUE_DEPTH), "an integer in [0, " + Policies.MAX_MAX_QUEUE_DEPTH
      + "] (late binding; 0 = off)", "" + (Policies.MAX_MAX_QUEUE_DEPTH + 1));
  private static final List<Param> DIFFUSION = List.of(WINDOW,
      new Param("theta", num(Policies.DEFAULT_THETA), "a number in [0, 1] (GCC's threshold)",
          "1.5"),
      MAX_QUEUE_DEPTH);
  /** Khanna's cost model (D26), read by {@link CostModel#fromParams}. */
  private static final List<Param> COST = List.of(WINDOW,
      new Param("rbw", num(CostModel.DEFAULT.rbw()), "MiB/s > 0 (remote bandwidth)", "0"),
      new Param("lbw", num(CostModel.DEFAULT.lbw()), "MiB/s > 0 (local bandwidth)", "0"),
      new Param("c", num(CostModel.DEFAULT.computePerMiB()), "s/MiB >= 0 (compute)", "-1"),
      new Param("storageNodes", num(CostModel.DEFAULT.storageNodes()),
          "an integer in [1, 1000000]", "0"),
      MAX_QUEUE_DEPTH);

  /** The file policies (pools of file tasks): they build a {@link Policy}. */
  private static final List<PolicyDescriptor<Policy>> FILE = List.of(
      file("FA", List.of(), Family.DATA_DIFFUSION, CacheModel.AGENT, DIFFUSION,
          p -> diffusion(p, new FirstAvailable())),
      file("FCA", List.of(), Family.DATA_DIFFUSION, CacheModel.AGENT, DIFFUSION,
          p -> diffusion(p, new FirstCacheAvailable())),
      file("MCU", List.of(), Family.DATA_DIFFUSION, CacheModel.AGENT, DIFFUSION,
          p -> diffusion(p, new MaxComputeUtil(window(p)))),
      file("MCH", List.of(), Family.DATA_DIFFUSION, CacheModel.AGENT, DIFFUSION,
          p -> diffusion(p, new MaxCacheHit(window(p)))),
      file("GCC", List.of(), Family.DATA_DIFFUSION, CacheModel.AGENT, DIFFUSION,
          p -> new GoodCacheCompute(window(p), fraction(p, "theta", Policies.DEFAULT_THETA))),
      file("MET", List.of(), Family.KHANNA, CacheModel.STAGED, COST,
          p -> new Met(CostModel.fromParams(p))),
      file("MCT", List.of(), Family.KHANNA, CacheModel.STAGED, COST,
          p -> new Mct(CostModel.fromParams(p))),
      file("SA", List.of(), Family.KHANNA, CacheModel.STAGED, with(COST,
          new Param("l", num(Sa.DEFAULT_LOW), "a number in [0, 1], <= h (D20)", "1.5"),
          new Param("h", num(Sa.DEFAULT_HIGH), "a number in [0, 1], >= l (D20)", "1.5")),
          p -> new Sa(CostModel.fromParams(p), fraction(p, "l", Sa.DEFAULT_LOW),
              fraction(p, "h", Sa.DEFAULT_HIGH))),
      file("JDPDLL", List.of(), Family.KHANNA, CacheModel.STAGED, with(COST,
          new Param("thresh", num(Jdpdll.DEFAULT_THRESH), "an integer >= 1 (D15)", "0")),
          p -> new Jdpdll(CostModel.fromParams(p),
              intParam(p, "thresh", Jdpdll.DEFAULT_THRESH))),
      file("ONLINE_HPS", List.of("ONLINE-HPS", "HPS"), Family.KHANNA, CacheModel.STAGED,
          with(COST,
              new Param("eps", num(OnlineHps.DEFAULT_EPS), "a number >= 0 (imbalance)", "-1"),
              new Param("partitioner", "GreedyKm1", String.join(" | ",
                  io.locus.hypergraph.Partitioners.NAMES) + " (any case; D7)", "bogus"),
              new Param("seed", "0", "an integer", "x"),
              new Param("repartitionInterval", "0", "seconds >= 0", "-1"),
              new Param("repartitionEvents", "1", "an integer >= 1", "0")),
          p -> new OnlineHps(CostModel.fromParams(p), partitioner(p.get("partitioner")),
              doubleParam(p, "eps", OnlineHps.DEFAULT_EPS), longParam(p, "seed", 0),
              doubleParam(p, "repartitionInterval", 0), intParam(p, "repartitionEvents", 1))),
      new PolicyDescriptor<>(ComplementaryPlace.NAME, List.of("COMPLEMENTARY-PLACE"),
          Family.HYBRID, CacheModel.AGENT, List.of(WINDOW,
              new Param("w_loc", num(ComplementaryPlace.DEFAULT_W_LOC), "a number >= 0", "-1"),
              new Param("w_comp", num(ComplementaryPlace.DEFAULT_W_COMP), "a number >= 0", "-1"),
              new Param("w_pk", num(ComplementaryPlace.DEFAULT_W_PK), "a number >= 0", "-1"),
              new Param("h", num(ComplementaryPlace.DEFAULT_HEADROOM), "a number in (0, 1]",
                  "0"),
              new Param("d_node", num(ComplementaryPlace.DEFAULT_D_NODE), "seconds >= 0", "-1"),
              new Param("d_rack", "max(" + num(ComplementaryPlace.DEFAULT_D_RACK) + ", d_node)",
                  "seconds >= d_node", "-1"),
              new Param("aging", num(ComplementaryPlace.DEFAULT_AGING_SECONDS),
                  "seconds > 0 (Infinity = off)", "0"),
              new Param("delay", "capped", "capped | strict", "bogus"),
              MAX_QUEUE_DEPTH),
          true, p -> ComplementaryPlace.of(p, window(p))),
      file("EFT", List.of("EARLIEST_FINISH"), Family.LOCUS, CacheModel.AGENT_OR_STAGED,
          with(COST,
              new Param("nicGbps", num(EarliestFinish.DEFAULT_NIC_GBPS), "Gb/s > 0", "0"),
              new Param("diskGbps", num(EarliestFinish.DEFAULT_DISK_GBPS), "Gb/s > 0", "0"),
              new Param("caches", "auto", "auto | staged | agent", "bogus")),
          p -> new EarliestFinish(CostModel.fromParams(p), window(p),
              positive(p, "nicGbps", EarliestFinish.DEFAULT_NIC_GBPS),
              positive(p, "diskGbps", EarliestFinish.DEFAULT_DISK_GBPS),
              EarliestFinish.caches(p.get("caches")))));

  /**
   * The split family's parameters (spec §1.1, §2), shared by its six policies; {@link
   * io.locus.core.split.SplitParams} reads its defaults from here and validates.
   */
  private static final List<Param> SPLIT_PARAMS = List.of(
      new Param("cacheGb", "100", "per-node cache in GB (decimal); or give cacheEvents", "-1"),
      new Param("cacheEvents", "", "per-node cache in events (overrides cacheGb)", "-1"),
      new Param("eventBytes", "600000", "bytes per event", "0"),
      new Param("tCpu", "0.2", "CPU seconds per event", "0"),
      new Param("tDisk", "0.06", "seconds to read an event from the local disk", "0"),
      new Param("tTape", "0.6", "seconds to read an event from tape", "0"),
      new Param("tapePipelining", "false", "overlap tape reads with compute (c_miss = max)",
          "maybe"),
      new Param("diskPipelining", "false", "overlap disk reads with compute (c_hit = max)",
          "maybe"),
      new Param("replication", "false", "OUT_OF_ORDER only: remote cache reads, copy on 3rd "
          + "access", "maybe"),
      new Param("min", "10", "MIN, minimal subjob size in events", "0"),
      new Param("starve", "2d", "OUT_OF_ORDER starvation threshold T_starve", "-1"),
      new Param("replicationThreshold", "3", "remote access count that replicates", "0"),
      new Param("stripe", "5000", "DELAYED/ADAPTIVE_DELAY stripe size S in events", "0"),
      new Param("period", "2d", "DELAYED period d (0 = at arrival)", "-1"),
      new Param("lmaxTable", "", "ADAPTIVE_DELAY (required): d:Lmax pairs separated by ',' or "
          + "';', e.g. 0:1.0,1d:1.5,2d:2.0", "x"),
      new Param("margin", "0.1", "ADAPTIVE_DELAY headroom: Lmax(d) >= (1 + margin) * rate",
          "-1"),
      new Param("window", "24h", "ADAPTIVE_DELAY arrival-rate window", "0"),
      new Param("hysteresis", "2", "ADAPTIVE_DELAY evaluations in a row before d decreases",
          "0"),
      new Param("evaluate", "1h", "ADAPTIVE_DELAY evaluation period while d = 0", "0"));

  /** The split policies (event-range jobs): they build a {@link SplitPolicy}. */
  private static final List<PolicyDescriptor<SplitPolicy>> SPLIT = List.of(
      split("FARM", CacheModel.NONE),
      split("JOB_SPLITTING", CacheModel.NONE),
      split("CACHE_JOB_SPLITTING", CacheModel.EVENT_RANGES),
      split("OUT_OF_ORDER", CacheModel.EVENT_RANGES),
      split("DELAYED", CacheModel.EVENT_RANGES),
      split("ADAPTIVE_DELAY", CacheModel.EVENT_RANGES));

  private static PolicyDescriptor<Policy> file(String name, List<String> aliases, Family family,
      CacheModel cache, List<Param> params, Function<Map<String, String>, Policy> factory) {
    return new PolicyDescriptor<>(name, aliases, family, cache, params, false, factory);
  }

  private static PolicyDescriptor<SplitPolicy> split(String name, CacheModel cache) {
    // no aliases: SplitParams.canonical takes any case and - for _
    return new PolicyDescriptor<>(name, List.of(), Family.SPLIT, cache,
        SPLIT_PARAMS, false, p -> SplitPolicies.create(name, p));
  }

  private static List<Param> with(List<Param> base, Param... more) {
    List<Param> l = new ArrayList<>(base);
    l.addAll(List.of(more));
    return List.copyOf(l);
  }

  /**
   * A data-diffusion policy that does not read theta still takes it (the family shares one
   * parameter set, as the simulator passes it): a theta outside [0, 1] is refused all the same, so
   * a pool's parameters mean the same whichever policy of the family it switches to.
   */
  private static Policy diffusion(Map<String, String> p, Policy policy) {
    fraction(p, "theta", Policies.DEFAULT_THETA);
    return policy;
  }

  private static int window(Map<String, String> p) {
    return intParam(p, "window", Policies.DEFAULT_WINDOW);
  }

  private static String num(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  // ------------------------------------------------------------------ derived views

  /** The file policies, in registry order. */
  public static List<PolicyDescriptor<Policy>> filePolicies() {
    return FILE;
  }

  /** The split policies, in registry order. */
  public static List<PolicyDescriptor<SplitPolicy>> splitPolicies() {
    return SPLIT;
  }

  /** Every policy, file policies first. */
  public static List<PolicyDescriptor<?>> all() {
    List<PolicyDescriptor<?>> l = new ArrayList<>(FILE);
    l.addAll(SPLIT);
    return List.copyOf(l);
  }

  /** The split family's shared parameters. */
  public static List<Param> splitParams() {
    return SPLIT_PARAMS;
  }

  /** The file policy {@code spelling} names (name or alias, any case), if any. */
  public static Optional<PolicyDescriptor<Policy>> find(String spelling) {
    return FILE.stream().filter(d -> d.answersTo(spelling)).findFirst();
  }

  /** The canonical names of the file policies that satisfy {@code which}, in registry order. */
  public static List<String> fileNames(Predicate<PolicyDescriptor<Policy>> which) {
    return FILE.stream().filter(which).map(PolicyDescriptor::name).toList();
  }

  /** Every file policy's name. */
  public static List<String> fileNames() {
    return fileNames(d -> true);
  }

  /** Every split policy's name. */
  public static List<String> splitNames() {
    return SPLIT.stream().map(PolicyDescriptor::name).toList();
  }

  /** The file policies of {@code family}. */
  public static List<String> family(Family family) {
    return fileNames(d -> d.family() == family);
  }

  // ------------------------------------------------- picocli completion candidates
  // picocli builds these with a no-argument constructor ({@code completionCandidates = ...}) and
  // lists them in help texts as ${COMPLETION-CANDIDATES}; plain Iterables, so the core needs no
  // picocli.

  /** Every policy's name: the file policies, then the split policies (from FARM on). */
  public static final class AllNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return all().stream().map(PolicyDescriptor::name).iterator();
    }
  }

  /** Every file policy's name. */
  public static final class FileNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return fileNames().iterator();
    }
  }

  /** Every split policy's name. */
  public static final class SplitNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return splitNames().iterator();
    }
  }

  /** The file policies that run on agent caches: what the data-diffusion simulator runs. */
  public static final class AgentCacheNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return fileNames(d -> d.cacheModel().agent()).iterator();
    }
  }
}
