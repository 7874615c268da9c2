package io.locus.cli.job;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.KafkaReachability;
import io.locus.kafka.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** How the job commands reach Kafka, and the checks they make before anything is sent or read. */
final class JobKafka {
  private JobKafka() {}

  /** Bootstrap servers and the --kafka-properties settings. */
  static Properties client(KafkaClientOptions kafka) {
    return kafka.clientProperties();
  }

  /**
   * A consumer's settings: committed records only (the scheduler's sinks are transactional, so a
   * status appears when its checkpoint completes), no group.
   */
  static Properties reader(KafkaClientOptions kafka) {
    Properties p = ClientConfigs.consumer("unused:0", null, true);
    p.putAll(kafka.clientProperties());
    return p;
  }

  /**
   * Fails, naming the address, when no broker answers within {@code timeout} (at most
   * {@link KafkaReachability#DEFAULT_TIMEOUT}): the one-line error every command gives (exit 1),
   * and then returns the topics of {@code needed} that do not exist.
   *
   * @throws KafkaReachability.Unreachable no broker answered
   */
  static List<String> check(Properties client, Duration timeout, List<TopicSpec<?>> needed) {
    Duration connect = timeout.compareTo(KafkaReachability.DEFAULT_TIMEOUT) < 0 ? timeout
        : KafkaReachability.DEFAULT_TIMEOUT;
    KafkaReachability.check(client, connect);
    Properties p = new Properties();
    p.putAll(client);
    int ms = (int) Math.max(1000, connect.toMillis());
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    try (Admin admin = Admin.create(p)) {
      // With ACLs this lists the topics the principal may describe: WRITE or READ on a topic
      // implies DESCRIBE, so a topic it is allowed to use is never called missing.
      Set<String> names = admin.listTopics().names().get(ms + 1000L, TimeUnit.MILLISECONDS);
      List<String> missing = new ArrayList<>();
      for (TopicSpec<?> t : needed) {
        if (!names.contains(t.name())) {
          missing.add(t.name());
        }
      }
      return missing;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot list the topics at "
          + client.get("bootstrap.servers") + ": " + (e.getCause() == null ? "no answer"
          : e.getCause().getMessage()), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** The message for missing topics, as `locus control` words it. */
  static String missingMessage(List<String> missing, Properties client) {
    return (missing.size() == 1 ? "topic " : "topics ") + String.join(", ", missing)
        + (missing.size() == 1 ? " does" : " do") + " not exist at "
        + client.get("bootstrap.servers") + " (create the topics: locus topics create)";
  }

  /** Whether {@code d} is a usable timeout; the message otherwise. */
  static void requirePositive(String option, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(option + " must be positive, got " + d);
    }
  }
}
