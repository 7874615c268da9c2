package io.locus.agent.security;

import io.locus.schemas.auth.RecordSigner;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Authenticates peer cache reads when the pool has a shared secret, so a node's cache is not
 * readable by anyone who can reach its port.
 *
 * <p>Header {@value #HEADER}: {@code <unix seconds>:<hex HmacSHA256(secret, "locus-peer-v1\n" +
 * seconds + "\n" + path)>}, where path is the request's raw path (e.g. {@code /cache/f%201}). The
 * server accepts a timestamp within {@link #MAX_SKEW_SECONDS} of its clock. A captured header can be
 * replayed within that window, for the same file only: acceptable for reading a cache entry.
 */
public final class PeerAuth {
  public static final String HEADER = "X-Locus-Peer-Auth";
  public static final long MAX_SKEW_SECONDS = 300;

  private final RecordSigner signer;

  public PeerAuth(RecordSigner signer) {
    this.signer = signer;
  }

  public String header(String rawPath, long unixSeconds) {
    return unixSeconds + ":" + HexFormat.of().formatHex(mac(rawPath, unixSeconds));
  }

  public boolean verify(String headerValue, String rawPath, long nowUnixSeconds) {
    if (headerValue == null) {
      return false;
    }
    int colon = headerValue.indexOf(':');
    if (colon <= 0) {
      return false;
    }
    long ts;
    byte[] given;
    try {
      ts = Long.parseLong(headerValue.substring(0, colon));
      given = HexFormat.of().parseHex(headerValue.substring(colon + 1));
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (Math.abs(nowUnixSeconds - ts) > MAX_SKEW_SECONDS) {
      return false;
    }
    return MessageDigest.isEqual(mac(rawPath, ts), given);
  }

  private byte[] mac(String rawPath, long ts) {
    return signer.mac(("locus-peer-v1\n" + ts + "\n" + rawPath)
        .getBytes(StandardCharsets.UTF_8));
  }
}
