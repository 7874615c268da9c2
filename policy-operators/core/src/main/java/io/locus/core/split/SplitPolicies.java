package io.locus.core.split;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

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
    return switch (p.policy()) {
      case "FARM" -> new Farm(p);
      case "JOB_SPLITTING" -> new JobSplitting(p);
      case "CACHE_JOB_SPLITTING" -> new CacheJobSplitting(p);
      case "OUT_OF_ORDER" -> new OutOfOrder(p);
      case "DELAYED" -> new Delayed(p);
      case "ADAPTIVE_DELAY" -> new AdaptiveDelay(p);
      default -> throw new IllegalArgumentException("unknown split policy " + p.policy());
    };
  }

  /** A policy rebuilt from {@link SplitPolicy#snapshot()} bytes (name and parameters included). */
  public static SplitPolicy restore(byte[] snapshot) {
    String name;
    Map<String, String> params;
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot));
      in.readInt();
      in.readInt();
      name = in.readUTF();
      params = SplitPolicy.readParams(in);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable split-policy snapshot", e);
    }
    SplitPolicy p = create(name, params);
    p.restore(snapshot);
    return p;
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
