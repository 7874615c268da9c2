package io.locus.agent.real;

import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.Setting;

/**
 * [http] The server peers read this node's cache from, with /metrics and /health.
 *
 * @param bind [http.bind] its address (default 127.0.0.1; 0.0.0.0 so peers can reach it)
 * @param port [http.port] its port (default 0: any free port)
 * @param advertisedUrl [http.advertised-url] the URL peers use, reported as the node's endpoint;
 *     null: http://bind:port, with the host name when bound to a wildcard address
 * @param threads [http.threads] threads serving peers and metrics (default 4)
 */
public record HttpSettings(String bind, Integer port, String advertisedUrl, Integer threads) {
  public static final HttpSettings DEFAULTS = new HttpSettings(null, null, null, null);

  public HttpSettings {
    bind = Setting.orDefault(bind, "127.0.0.1");
    if (bind.isBlank()) {
      throw new InvalidSetting("bind", "must name an address");
    }
    port = Setting.between("port", Setting.orDefault(port, 0), 0, 65535);
    threads = Setting.atLeast("threads", Setting.orDefault(threads, 4), 1);
  }

  /** The same server on any free port, advertised as bound: for one of several agents of a host. */
  public HttpSettings anyPort() {
    return new HttpSettings(bind, 0, null, threads);
  }
}
