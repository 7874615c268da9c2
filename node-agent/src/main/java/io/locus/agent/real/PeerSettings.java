package io.locus.agent.real;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.Setting;
import java.time.Duration;
import java.util.Map;

/**
 * [peers] How this agent finds its peers' endpoints.
 *
 * @param lookback [peers.lookback] how far back node-reports are read at start-up to learn them
 *     (default 2m: many heartbeats)
 * @param endpoints [peers.static] node → endpoint; these win over learnt ones
 */
public record PeerSettings(Duration lookback, @JsonProperty("static") Map<String, String> endpoints) {
  public static final PeerSettings DEFAULTS = new PeerSettings(null, null);

  public PeerSettings {
    lookback = Setting.notNegative("lookback", Setting.orDefault(lookback, Duration.ofMinutes(2)));
    endpoints = Setting.values("static", endpoints);
    endpoints.forEach((node, url) -> {
      try {
        new PeerEndpoints(Map.of(node, url));
      } catch (IllegalArgumentException e) {
        throw new InvalidSetting("static." + node, e.getMessage());
      }
    });
  }
}
