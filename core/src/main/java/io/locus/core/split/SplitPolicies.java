package io.locus.core.split;

import java.util.Map;
import java.util.function.Function;

/**
 * The split policies by name: {@code SplitPolicies.create("out_of_order", Map.of("replication",
 * "true", "cacheGb", "50"))}. Names are case-insensitive ('-' or '_'); parameters are listed in
 * {@link SplitParams#DOC} and validated with messages that say what is allowed.
 */
public final class SplitPolicies {
  private SplitPolicies() {}

  public static SplitPolicy create(String name, Map<String, String> params) {
    return create(SplitParams.parse(name, params));
  }

  public static SplitPolicy create(SplitParams p) {
    Function<Primitives, PolicyHooks> policy = switch (p.policy()) {
      case "FARM" -> Farm::new;
      case "JOB_SPLITTING" -> JobSplitting::new;
      case "CACHE_JOB_SPLITTING" -> CacheJobSplitting::new;
      case "OUT_OF_ORDER" -> OutOfOrder::new;
      case "DELAYED" -> Delayed::new;
      case "ADAPTIVE_DELAY" -> AdaptiveDelay::new;
      default -> throw new IllegalArgumentException("unknown split policy " + p.policy());
    };
    return new SplitPolicy(p, policy);
  }

  /**
   * A policy with parameters {@code p} rebuilt from entries its journal wrote ({@link
   * SplitJournal}), given in any order; it decides exactly as the policy they came from. Entries
   * that do not fit together or do not fit {@code p} (a cache over its capacity, a subjob of an
   * unknown job, a queue or a memory entry the policy does not have) are refused with an {@link
   * IllegalArgumentException} that says which.
   */
  public static SplitPolicy restore(SplitParams p, SplitEntries entries) {
    SplitPolicy policy = create(p);
    policy.restore(entries);
    return policy;
  }

  /** Parameter documentation, one line each, for help texts. */
  public static String usage() {
    StringBuilder sb = new StringBuilder("policies: ").append(String.join(", ",
        SplitParams.POLICIES)).append('\n');
    SplitParams.DOC.forEach((k, v) -> sb.append("  ").append(k)
        .append(v[0].isEmpty() ? "" : "=" + v[0]).append(": ").append(v[1]).append('\n'));
    return sb.toString();
  }
}
