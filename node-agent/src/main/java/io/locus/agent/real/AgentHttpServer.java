package io.locus.agent.real;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.locus.agent.security.PeerAuth;
import io.locus.schemas.limits.FileIds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real agent's HTTP server (JDK built-in):
 * <ul>
 *   <li>{@code GET|HEAD /cache/<file id>} serves a cached file to peers, with single byte-range
 *       requests ({@code Range: bytes=a-b}, {@code a-}, {@code -n}; 206 / 416), 404 when the
 *       file is not in the cache, is not a safe id, or is anything but a regular file (links are
 *       never followed). With a secret configured a request must carry a valid
 *       {@value PeerAuth#HEADER} header, else 401.
 *   <li>{@code GET /metrics}: Prometheus text format (version 0.0.4); with a secret, the same
 *       {@value PeerAuth#HEADER} header as the peer server (over the path {@code /metrics}), else
 *       401.
 *   <li>{@code GET /health}: 200 "ok", or 503 "draining" / "stopped" / why the agent is unhealthy
 *       (its decisions consumer stopped, another instance holds its node id).
 * </ul>
 * A bounded thread pool serves requests.
 */
public final class AgentHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentHttpServer.class);
  private static final int BUFFER = 256 * 1024;

  private final HttpServer server;
  private final ExecutorService pool;
  private final String url;
  private volatile DiskCache disk;
  private volatile Predicate<String> holds = f -> false;
  private volatile Supplier<String> metrics = () -> "";
  private volatile Supplier<String> health = () -> "starting";
  private volatile PeerAuth auth;
  private volatile TransferStats stats = new TransferStats();

  private AgentHttpServer(HttpServer server, ExecutorService pool, String url) {
    this.server = server;
    this.pool = pool;
    this.url = url;
  }

  /**
   * Binds (so the port, hence the endpoint, is known before the agent registers) and starts.
   *
   * @param advertisedUrl the URL to report, or null for http://bind:port (the host name when
   *     bound to a wildcard address)
   */
  public static AgentHttpServer start(String bind, int port, String advertisedUrl, int threads,
      String name) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 64);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + bind + ":" + port, e);
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "locus-agent-" + name + "-http-" + n.getAndIncrement());
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(pool);
    int actual = server.getAddress().getPort();
    String url = advertisedUrl != null ? advertisedUrl : "http://" + hostFor(bind) + ":" + actual;
    AgentHttpServer s = new AgentHttpServer(server, pool, url);
    server.createContext("/cache/", s::cache);
    server.createContext("/metrics", s::metrics);
    server.createContext("/health", s::health);
    server.start();
    return s;
  }

  private static String hostFor(String bind) {
    try {
      InetAddress a = InetAddress.getByName(bind);
      if (a.isAnyLocalAddress()) {
        return InetAddress.getLocalHost().getCanonicalHostName();
      }
      String h = a.getHostAddress();
      return h.contains(":") ? "[" + h + "]" : h;
    } catch (UnknownHostException e) {
      return bind;
    }
  }

  /** Connects the server to its agent, once the agent exists. */
  void bind(DiskCache disk, Predicate<String> holds, Supplier<String> metrics,
      Supplier<String> health, PeerAuth auth, TransferStats stats) {
    this.disk = disk;
    this.holds = holds;
    this.metrics = metrics;
    this.health = health;
    this.auth = auth;
    this.stats = stats;
  }

  /** The endpoint peers use. */
  public String url() {
    return url;
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
      PeerAuth a = auth;
      if (a != null && !a.verify(x.getRequestHeaders().getFirst(PeerAuth.HEADER),
          x.getRequestURI().getRawPath(), System.currentTimeMillis() / 1000)) {
        // The metrics name the node's tasks and traffic: the same secret as the peer server.
        send(x, 401, "");
        return;
      }
      x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      send(x, 200, metrics.get());
    }
  }

  private void health(HttpExchange x) throws IOException {
    try (x) {
      String h = health.get();
      send(x, h.equals("ok") ? 200 : 503, h + "\n");
    }
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

  private void cache(HttpExchange x) throws IOException {
    try (x) {
      String method = x.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        x.getResponseHeaders().set("Allow", "GET, HEAD");
        send(x, 405, "");
        return;
      }
      String raw = x.getRequestURI().getRawPath();
      PeerAuth a = auth;
      if (a != null && !a.verify(x.getRequestHeaders().getFirst(PeerAuth.HEADER), raw,
          System.currentTimeMillis() / 1000)) {
        stats.servedDenied.increment();
        send(x, 401, "");
        return;
      }
      String id = decode(raw.substring("/cache/".length()));
      DiskCache d = disk;
      if (id == null || d == null || !FileIds.isSafe(id) || !holds.test(id)) {
        notFound(x);
        return;
      }
      Path p = d.pathOf(id);
      BasicFileAttributes attrs;
      SeekableByteChannel ch;
      try {
        // NOFOLLOW_LINKS on open: a link swapped in after the check is not followed either.
        ch = Files.newByteChannel(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        notFound(x);
        return;
      }
      try (ch) {
        if (!attrs.isRegularFile()) {
          notFound(x);
          return;
        }
        serve(x, ch, ch.size(), method.equals("HEAD"));
      }
    } catch (RuntimeException e) {
      LOG.warn("peer request failed", e);
    }
  }

  private void notFound(HttpExchange x) throws IOException {
    stats.servedNotFound.increment();
    send(x, 404, "");
  }

  private void serve(HttpExchange x, SeekableByteChannel ch, long size, boolean head)
      throws IOException {
    long from = 0;
    long to = size - 1;
    int code = 200;
    String range = x.getRequestHeaders().getFirst("Range");
    x.getResponseHeaders().set("Accept-Ranges", "bytes");
    x.getResponseHeaders().set("Content-Type", "application/octet-stream");
    if (range != null && range.startsWith("bytes=") && !range.contains(",")) {
      // Several ranges are allowed to be answered with the whole file (RFC 9110 14.2).
      long[] r = parseRange(range.substring(6).trim(), size);
      if (r == null) {
        x.getResponseHeaders().set("Content-Range", "bytes */" + size);
        send(x, 416, "");
        return;
      }
      from = r[0];
      to = r[1];
      code = 206;
      x.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + size);
    }
    long length = Math.max(0, to - from + 1);
    if (head) {
      x.getResponseHeaders().set("Content-Length", Long.toString(length));
      x.sendResponseHeaders(code, -1);
      return;
    }
    x.sendResponseHeaders(code, length == 0 ? -1 : length);
    if (length == 0) {
      stats.servedOk.increment();
      return;
    }
    ch.position(from);
    ByteBuffer buf = ByteBuffer.allocate(BUFFER);
    long left = length;
    try (OutputStream out = x.getResponseBody()) {
      while (left > 0) {
        buf.clear();
        if (left < buf.capacity()) {
          buf.limit((int) left);
        }
        int n = ch.read(buf);
        if (n < 0) {
          throw new IOException("file shrank while serving it");
        }
        out.write(buf.array(), 0, n);
        left -= n;
        stats.servedBytes.add(n);
      }
    }
    stats.servedOk.increment();
  }

  /** [from, to] of a single range spec, or null when unsatisfiable or malformed. */
  static long[] parseRange(String spec, long size) {
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return null;
    }
    try {
      String a = spec.substring(0, dash).trim();
      String b = spec.substring(dash + 1).trim();
      if (a.isEmpty()) {
        long n = Long.parseLong(b);
        if (n <= 0 || size == 0) {
          return null;
        }
        return new long[] {Math.max(0, size - n), size - 1};
      }
      long from = Long.parseLong(a);
      long to = b.isEmpty() ? size - 1 : Math.min(Long.parseLong(b), size - 1);
      if (from < 0 || from >= size || to < from) {
        return null;
      }
      return new long[] {from, to};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Percent-decodes a path segment; null when malformed or when it contains a raw slash. */
  static String decode(String raw) {
    if (raw.isEmpty() || raw.indexOf('/') >= 0) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()) {
          return null;
        }
        int hi = Character.digit(raw.charAt(i + 1), 16);
        int lo = Character.digit(raw.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return null;
        }
        out.write(hi * 16 + lo);
        i += 2;
      } else if (c < 0x80) {
        out.write(c);
      } else {
        return null;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
    try {
      pool.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
