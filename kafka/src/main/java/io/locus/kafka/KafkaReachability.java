package io.locus.kafka;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;

/**
 * Fails fast, naming the address, when no broker answers: a Kafka client on a wrong address
 * otherwise retries silently for a minute and then reports a timeout that does not say where it
 * looked. The long-running commands (agents, status, topics) call this first.
 */
public final class KafkaReachability {
  /** Long enough for a broker under load, short enough that a typo is obvious. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

  private KafkaReachability() {}

  /** No broker answered at the address: a message for the operator, no stack trace needed. */
  public static final class Unreachable extends IllegalStateException {
    Unreachable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * One admin round trip ({@code describeCluster}) within {@code timeout}.
   *
   * @param clientProps bootstrap servers plus any security settings
   * @return the number of brokers in the cluster
   * @throws Unreachable "cannot reach Kafka at ADDRESS within T s (no answer)", or at once with
   *     what went wrong ("the host name does not resolve")
   */
  public static int check(Properties clientProps, Duration timeout) {
    String address = String.valueOf(clientProps.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    Properties p = new Properties();
    p.putAll(clientProps);
    int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    try (Admin admin = Admin.create(p)) {
      return admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes()
          .get(ms + 1000L, TimeUnit.MILLISECONDS).size();
    } catch (ExecutionException e) {
      throw unreachable(address, timeout, e.getCause());
    } catch (TimeoutException e) {
      throw unreachable(address, timeout, null);
    } catch (KafkaException e) {
      // e.g. "No resolvable bootstrap urls given in bootstrap.servers"
      throw unreachable(address, timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while connecting to Kafka at " + address, e);
    }
  }

  private static Unreachable unreachable(String address, Duration timeout,
      Throwable cause) {
    // The innermost message says what went wrong ("No resolvable bootstrap urls ..."); the
    // outer ones only that a client could not be made.
    Throwable root = cause;
    while (root != null && root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String why = root == null ? "no answer" : root.getMessage() != null
        ? root.getMessage() : root.getClass().getSimpleName();
    if (root instanceof org.apache.kafka.common.errors.TimeoutException) {
      why = "no answer";
    }
    String what;
    if (root instanceof java.net.UnknownHostException
        || why.contains("No resolvable bootstrap urls")) {
      // Fails at once, not after the timeout: "within 15 s" would send the operator looking
      // for a slow broker when the name itself is wrong.
      what = ": the host name does not resolve (no DNS or hosts-file entry)";
    } else if (why.equals("no answer")) {
      what = " within " + timeout.toSeconds() + " s (no answer)";
    } else {
      what = " (" + why + ")";
    }
    return new Unreachable("cannot reach Kafka at " + address + what
        + "; check --bootstrap-servers and that a broker runs there (locus broker starts one for"
        + " trying things out)", cause);
  }
}
