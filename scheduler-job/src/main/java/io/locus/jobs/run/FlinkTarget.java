package io.locus.jobs.run;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * An existing Flink session cluster, addressed by its REST endpoint ({@code --flink-rest}): checked
 * for reachability before anything starts, and the execution environment that submits the job to
 * it through the REST API ({@code StreamExecutionEnvironment.createRemoteEnvironment}, which ships
 * the given jars with the job graph).
 */
final class FlinkTarget {
  /** Main classes of the self-contained jars. */
  private static final java.util.Set<String> SELF_CONTAINED = java.util.Set.of(
      "io.locus.cli.LocusCli", io.locus.jobs.SchedulerJobMain.class.getName());

  private final String host;
  private final int port;

  private FlinkTarget(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /** {@code HOST:PORT} or {@code http://HOST:PORT}. */
  static FlinkTarget parse(String address) {
    String a = address.trim();
    URI uri;
    try {
      uri = new URI(a.contains("://") ? a : "http://" + a);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("--flink-rest: expected HOST:PORT, got '" + address + "'");
    }
    if (uri.getHost() == null || uri.getPort() < 1 || !"http".equals(uri.getScheme())) {
      throw new IllegalArgumentException("--flink-rest: expected HOST:PORT of the JobManager's"
          + " REST endpoint (e.g. localhost:8081), got '" + address + "'");
    }
    return new FlinkTarget(uri.getHost(), uri.getPort());
  }

  String url() {
    return "http://" + host + ":" + port;
  }

  /** The web UI's page of a job (a cluster without flink-runtime-web serves only the REST API). */
  String jobUrl(String jobId) {
    return url() + "/#/job/running/" + jobId + "/overview";
  }

  /** Asks the REST API for its configuration; throws with the address if it does not answer. */
  void requireReachable(Duration timeout) throws Unreachable {
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url() + "/config"))
          .timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() / 100 != 2) {
        throw new Unreachable("Flink REST API at " + url() + " answered "
            + r.statusCode() + " to GET /config: is --flink-rest the JobManager's REST port?");
      }
    } catch (IOException e) {
      throw new Unreachable("no Flink REST API reachable at " + url() + " within "
          + timeout + " (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); check --flink-rest");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unreachable("interrupted while reaching Flink at " + url());
    }
  }

  /** The environment that submits to this cluster with {@code jars} (may be empty). */
  StreamExecutionEnvironment environment(Configuration conf, List<Path> jars) {
    return StreamExecutionEnvironment.createRemoteEnvironment(host, port, conf,
        jars.stream().map(p -> p.toAbsolutePath().toString()).toArray(String[]::new));
  }

  /**
   * The jars to ship: {@code given} (--jar), else the jar this code runs from (the shaded
   * locus.jar or locus-scheduler-job.jar). Run from a classes directory (a development build or a test), there is no jar to
   * ship: the cluster must have Locus on its classpath, and {@code note} says so.
   */
  static List<Path> jars(List<Path> given, StringBuilder note) {
    List<Path> out = new ArrayList<>();
    if (!given.isEmpty()) {
      for (Path p : given) {
        if (!Files.isRegularFile(p)) {
          throw new IllegalArgumentException("--jar: no file " + p);
        }
        out.add(p.toAbsolutePath());
      }
      return out;
    }
    Path self = codeLocation();
    if (self != null && isLocusJar(self)) {
      out.add(self);
    } else {
      note.append("no jar shipped (running from ").append(self)
          .append(", not the self-contained locus.jar; the cluster's classpath must hold Locus,"
              + " or give --jar)");
    }
    return out;
  }

  /**
   * A self-contained jar: the full CLI (cli/target/locus.jar) or the scheduler job's jar
   * (scheduler-job/target/locus-scheduler-job.jar), whose manifests name their entry class as
   * main class. A classes directory or a module's thin jar (a development build, a test) would not
   * carry Locus's dependencies to the cluster.
   */
  static boolean isLocusJar(Path p) {
    // By name: this module cannot see the CLI's class (the job does not depend on the CLI).
    if (!Files.isRegularFile(p)) {
      return false;
    }
    try (JarFile jar = new JarFile(p.toFile())) {
      Manifest m = jar.getManifest();
      String main = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
      return main != null && SELF_CONTAINED.contains(main);
    } catch (IOException e) {
      return false;
    }
  }

  private static Path codeLocation() {
    try {
      var src = FlinkTarget.class.getProtectionDomain().getCodeSource();
      return src == null ? null : Path.of(src.getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }
}
