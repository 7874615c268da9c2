package io.locus.jobs.run;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded Flink of a local {@code locus run}: a MiniCluster in this JVM that we start
 * ourselves (instead of letting a local environment start one out of sight) so that its REST
 * address is known — the port is random with {@code --rest-port 0} — and printed; the job is
 * submitted to it through that REST API, as to any session cluster.
 */
final class LocalFlink implements AutoCloseable {
  private final MiniCluster cluster;
  private final URI rest;

  private LocalFlink(MiniCluster cluster, URI rest) {
    this.cluster = cluster;
    this.rest = rest;
  }

  /** Starts a MiniCluster with one TaskManager of {@code slots} slots, REST on {@code restPort}. */
  static LocalFlink start(Configuration jobConf, int slots, String restPort) throws Exception {
    Configuration conf = new Configuration(jobConf);
    conf.set(RestOptions.BIND_PORT, restPort);
    conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
    MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
        .setConfiguration(conf)
        .setNumTaskManagers(1)
        .setNumSlotsPerTaskManager(slots)
        .setRpcServiceSharing(RpcServiceSharing.SHARED)
        .build());
    try {
      cluster.start();
      return new LocalFlink(cluster, cluster.getRestAddress().get(30, TimeUnit.SECONDS));
    } catch (Exception e) {
      cluster.closeAsync();
      if (portTaken(e)) {
        // Flink's own words are a stack trace naming neither our flag nor the likely cause.
        throw new StartClash("the Flink REST port " + restPort + " (--rest-port) is in use, "
            + "most likely by another locus run or Flink on this machine; give --rest-port "
            + "another port, or 0 for any free one");
      }
      throw e;
    }
  }

  /** Whether {@code e} is the REST endpoint failing to bind its port. */
  static boolean portTaken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String m = t.getMessage();
      if (t instanceof java.net.BindException
          || m != null && m.contains("Could not start rest endpoint on any port")) {
        return true;
      }
    }
    return false;
  }

  /** The REST API and web UI, with the port it really bound. */
  String url() {
    return "http://" + rest.getHost() + ":" + rest.getPort();
  }

  String jobUrl(String jobId) {
    return url() + "/#/job/running/" + jobId + "/overview";
  }

  /** Submits through the REST API; no jar: the MiniCluster runs in this JVM, on its classpath. */
  StreamExecutionEnvironment environment(Configuration jobConf) {
    return StreamExecutionEnvironment.createRemoteEnvironment(rest.getHost(), rest.getPort(),
        jobConf, List.<String>of().toArray(String[]::new));
  }

  @Override
  public void close() throws Exception {
    cluster.closeAsync().get(60, TimeUnit.SECONDS);
  }
}
