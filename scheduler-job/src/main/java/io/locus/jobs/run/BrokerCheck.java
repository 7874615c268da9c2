package io.locus.jobs.run;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Fails fast when the Kafka cluster is not reachable: before anything starts, {@code locus run}
 * asks the brokers to describe their cluster within a short timeout. Without it a wrong address
 * shows up a minute later as a stack trace from deep inside Flink's Kafka source that does not
 * name the address.
 */
final class BrokerCheck {
  private BrokerCheck() {}

  /**
   * Returns the cluster id, or throws {@link Unreachable} after about {@code timeout}.
   * {@code admin} are the client properties (bootstrap servers, security settings).
   */
  static String requireReachable(Properties admin, Duration timeout) throws Unreachable {
    String bootstrap = admin.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    Properties p = new Properties();
    p.putAll(admin);
    int ms = (int) Math.max(1, timeout.toMillis());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
    p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG,
        Integer.toString(Math.min(ms, 2_000)));
    p.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG,
        Integer.toString(Math.min(ms, 2_000)));
    p.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "locus-run-check");
    Admin client;
    try {
      client = Admin.create(p);
    } catch (RuntimeException e) {
      // e.g. an unresolvable host name in bootstrap.servers
      throw new Unreachable("cannot use Kafka bootstrap servers " + bootstrap + ": " + reason(e));
    }
    try {
      return client.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).clusterId()
          .get(ms + 1_000L, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unreachable("interrupted while reaching Kafka at " + bootstrap);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new Unreachable("no Kafka broker reachable at " + bootstrap + " within " + timeout
          + " (" + reason(e) + "); check --bootstrap-servers and --kafka-properties");
    } finally {
      client.close(Duration.ZERO);
    }
  }

  /** The innermost message, one line. */
  private static String reason(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + t.getMessage();
    return m.lines().findFirst().orElse(m);
  }
}
