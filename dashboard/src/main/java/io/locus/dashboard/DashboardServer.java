package io.locus.dashboard;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The web side (Javalin on Jetty): the page and its scripts from the classpath ({@code /web}),
 * Chart.js from its WebJar at {@code /lib/chart.umd.min.js}, {@code GET /api/snapshot} (the state
 * as JSON) and {@code /api/stream}, server-sent {@code snapshot} events once a second. Read-only:
 * there is no route that changes anything. Every response forbids framing and sniffing, and the
 * page may run only its own scripts (Content-Security-Policy), so a string that got through as
 * markup still could not run.
 */
final class DashboardServer implements AutoCloseable {
  /** The browser may load and connect to this server only; no inline script, no framing. */
  static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
      + "form-action 'none'";
  static final Map<String, String> HEADERS = Map.of(
      "Content-Security-Policy", CSP,
      "X-Content-Type-Options", "nosniff",
      "X-Frame-Options", "DENY",
      "Referrer-Policy", "no-referrer",
      "Cache-Control", "no-store");
  private static final long PUSH_EVERY_MS = 1000;

  private final DashboardState state;
  private final LongSupplier clock;
  private final ObjectMapper json = new ObjectMapper();
  private final Queue<SseClient> clients = new ConcurrentLinkedQueue<>();
  private final ScheduledExecutorService pusher;
  private final Javalin app;
  private final byte[] chartJs;

  DashboardServer(DashboardState state, String host, int port, LongSupplier clock) {
    this.state = state;
    this.clock = clock;
    this.chartJs = chartJs();
    this.app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.startup.showOldJavalinVersionWarning = false;
      config.staticFiles.add(files -> {
        files.hostedPath = "/";
        files.directory = "/web";
        files.location = Location.CLASSPATH;
        files.headers = HEADERS;
      });
      config.routes.before(ctx -> HEADERS.forEach(ctx::header));
      config.routes.get("/api/snapshot", this::snapshot);
      config.routes.get("/lib/chart.umd.min.js", ctx -> ctx.contentType("text/javascript")
          .result(chartJs));
      config.routes.sse("/api/stream", this::follow);
    });
    try {
      app.start(host, port);
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot serve the dashboard on " + host + ":" + port + ": "
          + e.getMessage(), e);
    }
    pusher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "dashboard-sse");
      t.setDaemon(true);
      return t;
    });
    pusher.scheduleAtFixedRate(this::push, PUSH_EVERY_MS, PUSH_EVERY_MS, TimeUnit.MILLISECONDS);
  }

  int port() {
    return app.port();
  }

  private void snapshot(Context ctx) throws JsonProcessingException {
    ctx.contentType("application/json").result(json.writeValueAsString(
        state.snapshot(clock.getAsLong())));
  }

  private void follow(SseClient client) {
    client.keepAlive();
    client.onClose(() -> clients.remove(client));
    clients.add(client);
    try {
      client.sendEvent("snapshot", json.writeValueAsString(state.snapshot(clock.getAsLong())));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private void push() {
    if (clients.isEmpty()) {
      return;
    }
    String s;
    try {
      s = json.writeValueAsString(state.snapshot(clock.getAsLong()));
    } catch (JsonProcessingException | RuntimeException e) {
      return; // the next tick tries again
    }
    for (SseClient c : clients) {
      if (c.terminated()) {
        clients.remove(c);
        continue;
      }
      try {
        c.sendEvent("snapshot", s);
      } catch (RuntimeException e) {
        clients.remove(c); // the browser went away
      }
    }
  }

  /** Chart.js, from the WebJar on the classpath (whatever its version: the pom chooses it). */
  static byte[] chartJs() {
    ClassLoader cl = DashboardServer.class.getClassLoader();
    Properties pom = new Properties();
    try (InputStream in = cl.getResourceAsStream(
        "META-INF/maven/org.webjars.npm/chart.js/pom.properties")) {
      if (in == null) {
        throw new IllegalStateException("the chart.js WebJar is not on the classpath");
      }
      pom.load(in);
      String path = "META-INF/resources/webjars/chart.js/" + pom.getProperty("version")
          + "/dist/chart.umd.min.js";
      try (InputStream js = cl.getResourceAsStream(path)) {
        if (js == null) {
          throw new IllegalStateException(path + " is not on the classpath");
        }
        return js.readAllBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    pusher.shutdownNow();
    clients.forEach(c -> {
      try {
        c.close();
      } catch (RuntimeException e) {
        // already gone
      }
    });
    app.stop();
  }
}
