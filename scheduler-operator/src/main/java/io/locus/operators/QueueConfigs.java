package io.locus.operators;

import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.schemas.QueueConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Between the stream's {@link QueueConfig} records (a SET_QUEUES control, the metrics record that
 * shows a pool's tree) and the core's {@link QueueSpec}: one place, so the scheduler and
 * {@code locus queues} read a tree the same way. Times: the record carries milliseconds (every
 * time on the stream does), the core seconds.
 */
public final class QueueConfigs {
  private QueueConfigs() {}

  public static QueueSpec toSpec(QueueConfig c) {
    return new QueueSpec(c.getName(), c.getParent(), c.getWeight(), c.getGuaranteedSlots(),
        c.getLimitSlots() == null ? QueueSpec.UNLIMITED : c.getLimitSlots(),
        c.getLendingLimitSlots(), c.getCacheGuaranteeBytes(), c.getCacheLimitBytes(),
        c.getMaxWaitMs() == null ? null : c.getMaxWaitMs() / 1000.0);
  }

  public static List<QueueSpec> toSpecs(List<QueueConfig> configs) {
    List<QueueSpec> out = new ArrayList<>(configs.size());
    for (QueueConfig c : configs) {
      out.add(toSpec(c));
    }
    return out;
  }

  /** A record of {@code s}; a max wait is rounded to the millisecond. */
  public static QueueConfig toConfig(QueueSpec s) {
    return QueueConfig.newBuilder()
        .setName(s.name())
        .setParent(s.parent())
        .setWeight(s.weight())
        .setGuaranteedSlots(s.guaranteedSlots())
        .setLimitSlots(s.limitSlots() == QueueSpec.UNLIMITED ? null : s.limitSlots())
        .setLendingLimitSlots(s.lendingLimitSlots())
        .setCacheGuaranteeBytes(s.cacheGuaranteeBytes())
        .setCacheLimitBytes(s.cacheLimitBytes())
        .setMaxWaitMs(s.maxWaitSeconds() == null ? null : Math.round(s.maxWaitSeconds() * 1000))
        .build();
  }

  public static List<QueueConfig> toConfigs(List<QueueSpec> specs) {
    List<QueueConfig> out = new ArrayList<>(specs.size());
    for (QueueSpec s : specs) {
      out.add(toConfig(s));
    }
    return out;
  }

  /**
   * The tree of {@code configs} as the scheduler builds it: against a pool of unknown size, so
   * only the queues' own guarantees are checked (a pool's slots change as nodes come and go; a
   * tree applied before the nodes register must not be refused for it).
   *
   * @throws io.locus.core.share.QueueConfigException with every problem
   */
  public static QueueTree tree(List<QueueConfig> configs) {
    return QueueTree.build(toSpecs(configs), -1);
  }

  /** Every problem of {@code configs} as {@link #tree} checks them; empty when valid. */
  public static List<String> problems(List<QueueConfig> configs) {
    return QueueTree.problems(toSpecs(configs), -1);
  }
}
