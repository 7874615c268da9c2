package io.locus.agent.real;

import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.Setting;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * [storage] Where inputs come from when no peer serves them.
 *
 * @param root [storage.root] default storage for inputs without a location, joined with the file
 *     id: {@code file:} (a shared file system) or {@code http(s):}; null: every input needs a
 *     location
 * @param allowedLocations [storage.allowed-locations] URI prefixes a plan's location must start
 *     with; empty: the root
 * @param maxConcurrentTransfers [storage.max-concurrent-transfers] peer and storage transfers at
 *     once (default 4)
 * @param attempts [storage.attempts] tries of an HTTP transfer, resumed by range (default 3)
 * @param requestTimeout [storage.request-timeout] connect and response-header timeout, and the
 *     longest silence mid-transfer (default 30s)
 * @param transferTimeout [storage.transfer-timeout] the longest one transfer may take (default 30m)
 */
public record StorageSettings(URI root, List<URI> allowedLocations, Integer maxConcurrentTransfers,
    Integer attempts, Duration requestTimeout, Duration transferTimeout) {
  public static final StorageSettings DEFAULTS = rootedAt(null);

  public StorageSettings {
    allowedLocations = Setting.values("allowed-locations", allowedLocations);
    maxConcurrentTransfers = Setting.atLeast("max-concurrent-transfers",
        Setting.orDefault(maxConcurrentTransfers, 4), 1);
    attempts = Setting.atLeast("attempts", Setting.orDefault(attempts, 3), 1);
    requestTimeout = Setting.positive("request-timeout",
        Setting.orDefault(requestTimeout, Duration.ofSeconds(30)));
    transferTimeout = Setting.positive("transfer-timeout",
        Setting.orDefault(transferTimeout, Duration.ofMinutes(30)));
    // Fails early on a root or prefix of another scheme.
    if (root != null && !List.of("file", "http", "https").contains(
        String.valueOf(root.getScheme()).toLowerCase(Locale.ROOT))) {
      throw new InvalidSetting("root", root + ": only file:, http: and https: are supported");
    }
    for (int i = 0; i < allowedLocations.size(); i++) {
      try {
        new StorageLocations(null, List.of(allowedLocations.get(i).toString()));
      } catch (IllegalArgumentException e) {
        throw new InvalidSetting("allowed-locations[" + i + "]", e.getMessage());
      }
    }
  }

  /** The defaults with storage at {@code root}. */
  public static StorageSettings rootedAt(URI root) {
    return new StorageSettings(root, null, null, null, null, null);
  }

  /** The rules these settings make: where a location reads from, and whether it may. */
  public StorageLocations locations() {
    return new StorageLocations(root, allowedLocations.stream().map(URI::toString).toList());
  }
}
