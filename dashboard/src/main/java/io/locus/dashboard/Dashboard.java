package io.locus.dashboard;

import java.util.Properties;

/**
 * A running dashboard: a {@link TopicFollower} folding the topics into a {@link DashboardState},
 * and the {@link DashboardServer} showing it. {@code locus dashboard} and {@code locus demo} start
 * it; close it to stop both.
 */
public final class Dashboard implements AutoCloseable {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PLACEMENTS = 50;

  private final DashboardState state;
  private final TopicFollower follower;
  private final DashboardServer server;
  private final String host;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Settings: where to serve ({@code port} 0 = a free one) and how many of the latest placements
   * to keep. Lost nodes are the scheduler's verdicts (node-status): no timeout is needed here.
   */
  public record Options(String host, int port, int keepPlacements) {
    public Options {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("the host to serve on must be given");
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0-65535 (0: a free one), got " + port);
      }
    }

    public static Options defaults() {
      return new Options(DEFAULT_HOST, 0, DEFAULT_PLACEMENTS);
    }
  }

  private Dashboard(DashboardState state, TopicFollower follower, DashboardServer server,
      String host) {
    this.state = state;
    this.follower = follower;
    this.server = server;
    this.host = host;
  }

  /**
   * Starts following the topics (from the earliest offsets) and serving the page.
   *
   * @param clientProps Kafka client settings: bootstrap servers, security
   */
  public static Dashboard start(Properties clientProps, Options options) {
    DashboardState state = new DashboardState(options.keepPlacements());
    DashboardServer server = new DashboardServer(state, options.host(), options.port(),
        System::currentTimeMillis);
    TopicFollower follower;
    try {
      follower = new TopicFollower(clientProps, state);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return new Dashboard(state, follower, server, options.host());
  }

  public int port() {
    return server.port();
  }

  /** The page's address. */
  public String url() {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return "http://" + h + ":" + port() + "/";
  }

  public DashboardState state() {
    return state;
  }

  /** Why following the topics stopped, or null while it runs. */
  public Throwable failure() {
    return follower.failure();
  }

  /** Stops following and serving; a second call does nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      follower.close();
    } finally {
      server.close();
    }
  }
}
