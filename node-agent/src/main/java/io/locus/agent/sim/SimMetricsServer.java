package io.locus.agent.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.locus.agent.AgentConfig;
import io.locus.agent.AgentStats;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * {@code GET /metrics} (Prometheus text format 0.0.4) and {@code GET /health} for the simulated
 * agents of one {@code locus agent sim} process, one series per node (label {@code node}): the
 * real agent's names (AgentHttpServer, prefix {@code locus_agent_}) where the meaning is the same,
 * so one dashboard reads both. Slots in use, local queue, cache fill, input bytes by source,
 * bytes fetched by ReplicateFile, tasks by outcome, draining. Unauthenticated: the process is a
 * load generator for trying things out, and serves only counters.
 */
public final class SimMetricsServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService pool;
  private final Supplier<Map<String, AgentStats>> stats;
  private final Predicate<String> draining;
  private final AgentConfig template;

  private SimMetricsServer(HttpServer server, ExecutorService pool,
      Supplier<Map<String, AgentStats>> stats, Predicate<String> draining,
      AgentConfig template) {
    this.server = server;
    this.pool = pool;
    this.stats = stats;
    this.draining = draining;
    this.template = template;
  }

  /**
   * Listens on {@code bind}:{@code port} (0: any free port) and serves the nodes of {@code
   * stats} (node id to its counters, read at each request), all with {@code template}'s settings.
   */
  public static SimMetricsServer start(String bind, int port,
      Supplier<Map<String, AgentStats>> stats, Predicate<String> draining, AgentConfig template) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + bind + ":" + port
          + " for the agents' metrics: " + e.getMessage(), e);
    }
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "locus-agent-sim-metrics");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(pool);
    SimMetricsServer s = new SimMetricsServer(server, pool, stats, draining, template);
    server.createContext("/metrics", s::metrics);
    server.createContext("/health", s::health);
    server.start();
    return s;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void metrics(HttpExchange x) throws IOException {
    try (x) {
      if (!x.getRequestMethod().equals("GET")) {
        send(x, 405, "GET only\n");
        return;
      }
      x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      send(x, 200, text(stats.get()));
    }
  }

  private void health(HttpExchange x) throws IOException {
    try (x) {
      send(x, 200, "ok\n");
    }
  }

  /** The metrics of these nodes in Prometheus text format. */
  String text(Map<String, AgentStats> nodes) {
    String pool = esc(template.pool());
    StringBuilder b = new StringBuilder(256 + nodes.size() * 1600);
    family(b, "locus_agent_tasks_running", "gauge", "Tasks running now (slots in use).");
    nodes.forEach((n, s) -> line(b, "locus_agent_tasks_running", pool, n, null, s.running()));
    family(b, "locus_agent_slots", "gauge", "Tasks that may run at once.");
    nodes.forEach((n, s) -> line(b, "locus_agent_slots", pool, n, null, template.slots()));
    family(b, "locus_agent_queued_tasks", "gauge", "Placements waiting in the local queue.");
    nodes.forEach((n, s) -> line(b, "locus_agent_queued_tasks", pool, n, null, s.queued()));
    family(b, "locus_agent_queue_depth", "gauge", "Placements the local queue holds at most.");
    nodes.forEach((n, s) -> line(b, "locus_agent_queue_depth", pool, n, null,
        template.queueDepth()));
    family(b, "locus_agent_cache_used_bytes", "gauge", "Bytes in the cache.");
    nodes.forEach((n, s) -> line(b, "locus_agent_cache_used_bytes", pool, n, null,
        s.cacheUsedBytes()));
    family(b, "locus_agent_cache_capacity_bytes", "gauge", "The cache quota.");
    nodes.forEach((n, s) -> line(b, "locus_agent_cache_capacity_bytes", pool, n, null,
        template.cacheCapacityBytes()));
    family(b, "locus_agent_cache_files", "gauge", "Files in the cache.");
    nodes.forEach((n, s) -> line(b, "locus_agent_cache_files", pool, n, null, s.cacheFiles()));
    family(b, "locus_agent_input_bytes_total", "counter",
        "Input bytes of tasks, by where they were read (each input counted once).");
    nodes.forEach((n, s) -> {
      line(b, "locus_agent_input_bytes_total", pool, n, "source=\"local\"", s.bytesLocal());
      line(b, "locus_agent_input_bytes_total", pool, n, "source=\"peer\"", s.bytesPeer());
      line(b, "locus_agent_input_bytes_total", pool, n, "source=\"storage\"", s.bytesStorage());
    });
    family(b, "locus_agent_replicated_bytes_total", "counter", "Bytes fetched by ReplicateFile.");
    nodes.forEach((n, s) -> line(b, "locus_agent_replicated_bytes_total", pool, n, null,
        s.replicatedBytes()));
    family(b, "locus_agent_outputs_total", "counter",
        "Outputs of completed tasks, by whether they were cached.");
    nodes.forEach((n, s) -> {
      line(b, "locus_agent_outputs_total", pool, n, "result=\"cached\"", s.outputsCached());
      line(b, "locus_agent_outputs_total", pool, n, "result=\"not_cached\"",
          s.outputsNotCached());
    });
    family(b, "locus_agent_output_bytes_total", "counter", "Bytes of the outputs cached.");
    nodes.forEach((n, s) -> line(b, "locus_agent_output_bytes_total", pool, n, null,
        s.outputBytesCached()));
    family(b, "locus_agent_tasks_total", "counter", "Task events emitted, by type.");
    nodes.forEach((n, s) -> {
      line(b, "locus_agent_tasks_total", pool, n, "type=\"started\"", s.tasksStarted());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"completed\"", s.tasksCompleted());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"failed\"", s.tasksFailed());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"refused\"", s.tasksRefused());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"suspended\"", s.tasksSuspended());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"shrunk\"", s.shrinksAcknowledged());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"withdrawn\"", s.tasksWithdrawn());
      line(b, "locus_agent_tasks_total", pool, n, "type=\"preempted\"", s.tasksPreempted());
    });
    family(b, "locus_agent_draining", "gauge", "1 while draining.");
    nodes.forEach((n, s) -> line(b, "locus_agent_draining", pool, n, null,
        draining.test(n) ? 1 : 0));
    return b.toString();
  }

  private static void family(StringBuilder b, String name, String type, String help) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void line(StringBuilder b, String name, String pool, String node, String extra,
      long v) {
    b.append(name).append("{pool=\"").append(pool).append("\",node=\"").append(esc(node))
        .append('"');
    if (extra != null) {
      b.append(',').append(extra);
    }
    b.append("} ").append(v).append('\n');
  }

  private static String esc(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static void send(HttpExchange x, int code, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.sendResponseHeaders(code, b.length == 0 ? -1 : b.length);
    if (b.length > 0) {
      try (OutputStream out = x.getResponseBody()) {
        out.write(b);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
