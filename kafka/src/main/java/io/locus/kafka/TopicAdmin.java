package io.locus.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Idempotent creation of the declared topics ({@link Topics}), run by the demo, the job launcher
 * and tests before anything produces.
 *
 * <p>Missing topics are created with the spec's partition count and configs. Existing topics are
 * left as they are, including their configs: changing a live topic is an operator's decision, not
 * a side effect of starting a client. A topic whose partition count differs from the declaration
 * is logged as a WARN and not changed. Adding partitions would move keys to other partitions,
 * breaking per-pool ordering, and agents compute their decisions partition with {@link
 * Topics#partitionOf} from the declared count; so the fix is to recreate the topic or to change
 * the declaration, knowingly.
 */
public final class TopicAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);
  private static final long DEFAULT_TIMEOUT_MS = 60_000;

  private TopicAdmin() {}

  /** {@link #ensureTopics(Properties, Collection)} with a plain connection to {@code bootstrap}. */
  public static void ensureTopics(String bootstrap, Collection<? extends TopicSpec<?>> topics) {
    ensureTopics(ClientConfigs.base(bootstrap), topics);
  }

  /**
   * Creates the missing {@code topics} with the broker's {@code default.replication.factor}: 1 on
   * the test brokers of kafka-testkit; a production cluster sets it to 3 (or use the overload taking a
   * replication factor).
   *
   * @param clientProps admin client settings: bootstrap servers plus any security settings
   *     (see {@link ClientConfigs#withOverrides})
   */
  public static void ensureTopics(
      Properties clientProps, Collection<? extends TopicSpec<?>> topics) {
    ensureTopics(clientProps, topics, Optional.empty());
  }

  /**
   * Creates the missing {@code topics} with {@code replicationFactor} replicas: 1 for an embedded
   * broker, 3 in production (with {@code min.insync.replicas=2}, so acks=all survives one broker
   * loss).
   */
  public static void ensureTopics(
      Properties clientProps, Collection<? extends TopicSpec<?>> topics, short replicationFactor) {
    if (replicationFactor < 1) {
      throw new IllegalArgumentException("replication factor must be >= 1: " + replicationFactor);
    }
    ensureTopics(clientProps, topics, Optional.of(replicationFactor));
  }

  private static void ensureTopics(Properties clientProps,
      Collection<? extends TopicSpec<?>> topics, Optional<Short> replicationFactor) {
    long timeoutMs = timeoutMs(clientProps);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    Map<String, TopicSpec<?>> byName = new LinkedHashMap<>();
    for (TopicSpec<?> t : topics) {
      byName.put(t.name(), t);
    }
    try (Admin admin = Admin.create(clientProps)) {
      Set<String> existing = await(admin.listTopics().names(), deadline, "list topics");

      List<NewTopic> missing = new ArrayList<>();
      List<String> present = new ArrayList<>();
      for (TopicSpec<?> t : byName.values()) {
        if (existing.contains(t.name())) {
          present.add(t.name());
        } else {
          missing.add(new NewTopic(t.name(), Optional.of(t.partitions()), replicationFactor)
              .configs(t.configs()));
        }
      }

      if (!missing.isEmpty()) {
        CreateTopicsResult created = admin.createTopics(missing);
        for (Map.Entry<String, KafkaFuture<Void>> e : created.values().entrySet()) {
          try {
            await(e.getValue(), deadline, "create topic " + e.getKey());
            LOG.info("created topic {} ({} partitions)", e.getKey(),
                byName.get(e.getKey()).partitions());
          } catch (TopicExistsException raced) {
            // Someone else created it between our list and create: check it like any other.
            present.add(e.getKey());
          }
        }
      }

      if (!present.isEmpty()) {
        Map<String, TopicDescription> described =
            await(admin.describeTopics(present).allTopicNames(), deadline, "describe topics");
        for (TopicDescription d : described.values()) {
          int declared = byName.get(d.name()).partitions();
          int actual = d.partitions().size();
          if (actual != declared) {
            LOG.warn("topic {} has {} partitions but {} are declared; left unchanged. Keyed "
                    + "routing (Topics.partitionOf) assumes the declared count: recreate the topic "
                    + "or change the declaration.", d.name(), actual, declared);
          }
        }
      }
    }
  }

  /**
   * Waits for an admin call until the overall deadline. A TopicExistsException is rethrown as is
   * for the race handling above; any other failure keeps Kafka's exception as the cause.
   */
  private static <T> T await(KafkaFuture<T> future, long deadlineNanos, String what) {
    long remainingMs =
        Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    try {
      return future.get(remainingMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TopicExistsException exists) {
        throw exists;
      }
      throw new IllegalStateException("cannot " + what + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot " + what + ": no answer within the deadline", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + what, e);
    }
  }

  private static long timeoutMs(Properties props) {
    Object v = props.get(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    return v == null ? DEFAULT_TIMEOUT_MS : Long.parseLong(v.toString().trim());
  }
}
