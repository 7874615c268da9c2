package io.locus.agent.real;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where storage reads go, and which locations a decision may name.
 *
 * <p>A plan's location is a {@code file:} URI (a shared file system mounted on the node) or an
 * {@code http(s):} URL. A null location means the pool's default storage root joined with the file
 * id. A location must lie under one of the allowed prefixes (by default the storage root): without
 * that check a decision could copy any file the agent can read (say {@code file:///etc/shadow}) into
 * its cache, which peers can read, or make the agent fetch from any URL. For {@code file:} the check
 * is done on the normalised path when the decision arrives and again on the real path (symbolic
 * links resolved) when the file is opened.
 */
public final class StorageLocations {
  /** Where a resolved file is read from: a local path or a URL. */
  public sealed interface StoredFile permits LocalFile, HttpFile {}

  public record LocalFile(Path path) implements StoredFile {}

  public record HttpFile(URI uri) implements StoredFile {}

  /** The location is malformed, not allowed, or absent without a root. */
  public static final class Refused extends Exception {
    public Refused(String message) {
      super(message);
    }
  }

  private final URI root;
  private final List<Path> fileRoots = new ArrayList<>();
  private final List<String> httpRoots = new ArrayList<>();

  /**
   * @param root the default storage root (file: or http(s):), or null
   * @param allowed allowed location prefixes; empty: the root alone
   */
  public StorageLocations(URI root, List<String> allowed) {
    this.root = root == null ? null : directoryUri(root);
    List<String> prefixes = allowed == null || allowed.isEmpty()
        ? (root == null ? List.of() : List.of(this.root.toString())) : allowed;
    for (String a : prefixes) {
      URI u = URI.create(a).normalize();
      String scheme = scheme(u);
      switch (scheme) {
        case "file" -> fileRoots.add(Path.of(u).toAbsolutePath().normalize());
        case "http", "https" -> httpRoots.add(directoryUri(u).toString());
        default -> throw new IllegalArgumentException("allowed location " + a
            + ": only file:, http: and https: are supported");
      }
    }
    if (this.root != null) {
      String s = scheme(this.root);
      if (!s.equals("file") && !s.equals("http") && !s.equals("https")) {
        throw new IllegalArgumentException("storage root " + root
            + ": only file:, http: and https: are supported");
      }
    }
  }

  public URI root() {
    return root;
  }

  private static String scheme(URI u) {
    return u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
  }

  /** The URI with a trailing slash, so that a prefix check means "inside this directory". */
  private static URI directoryUri(URI u) {
    String s = u.normalize().toString();
    return URI.create(s.endsWith("/") ? s : s + "/");
  }

  /** Where to read {@code fileId} whose plan says {@code location} (may be null). */
  public StoredFile resolve(String location, String fileId) throws Refused {
    URI u;
    if (location == null) {
      if (root == null) {
        throw new Refused("no location for " + fileId + " and no storage root configured");
      }
      u = root.resolve(encodeSegment(fileId));
    } else {
      try {
        u = new URI(location);
      } catch (URISyntaxException e) {
        throw new Refused("malformed location " + location + ": " + e.getReason());
      }
    }
    u = u.normalize();
    String scheme = scheme(u);
    switch (scheme) {
      case "file" -> {
        Path p;
        try {
          p = Path.of(u).toAbsolutePath().normalize();
        } catch (IllegalArgumentException e) {
          throw new Refused("malformed file location " + location + ": " + e.getMessage());
        }
        for (Path r : fileRoots) {
          if (p.startsWith(r) && !p.equals(r)) {
            return new LocalFile(p);
          }
        }
        throw new Refused(u + " is outside the allowed storage locations " + fileRoots);
      }
      case "http", "https" -> {
        if (u.getRawUserInfo() != null) {
          throw new Refused("a location with user info is not allowed: " + u.getHost());
        }
        String s = u.toString();
        for (String r : httpRoots) {
          if (s.startsWith(r) && s.length() > r.length()) {
            return new HttpFile(u);
          }
        }
        throw new Refused(u + " is outside the allowed storage locations " + httpRoots);
      }
      default -> throw new Refused("unsupported location scheme in " + location
          + " (file:, http: or https:)");
    }
  }

  /**
   * Re-checks a file source on its real path, symbolic links resolved, when it is opened: a link
   * inside storage must not lead outside it.
   */
  public Path realFile(LocalFile src) throws IOException, Refused {
    Path real = src.path().toRealPath();
    for (Path r : fileRoots) {
      Path rr = Files.exists(r) ? r.toRealPath() : r;
      if (real.startsWith(rr)) {
        return real;
      }
    }
    throw new Refused(src.path() + " resolves to " + real + ", outside the allowed locations");
  }

  /** Percent-encodes one path segment (RFC 3986 unreserved characters stay). */
  public static String encodeSegment(String s) {
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '.' || c == '_' || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return b.toString();
  }
}
