package io.locus.schemas.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads a shared secret from a file. */
public final class Secrets {
  private static final Logger LOG = LoggerFactory.getLogger(Secrets.class);

  private Secrets() {}

  /**
   * The file's bytes without trailing whitespace (an editor's final newline is not part of the
   * secret). Warns when others than the owner may read the file.
   */
  public static byte[] read(Path file) {
    byte[] raw;
    try {
      raw = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the secret file " + file, e);
    }
    int end = raw.length;
    while (end > 0 && (raw[end - 1] == '\n' || raw[end - 1] == '\r' || raw[end - 1] == ' '
        || raw[end - 1] == '\t')) {
      end--;
    }
    if (end == 0) {
      throw new IllegalArgumentException("the secret file " + file + " is empty");
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.contains(PosixFilePermission.GROUP_READ)
          || perms.contains(PosixFilePermission.OTHERS_READ)) {
        LOG.warn("the secret file {} is readable by others than its owner; chmod 600 it", file);
      }
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("cannot check the permissions of {}", file, e);
    }
    return Arrays.copyOf(raw, end);
  }

  /** Length of a node key ({@code NodeKeys}: an HMAC-SHA256 output). */
  public static final int NODE_KEY_BYTES = 32;

  /**
   * A node key file as {@code locus agent node-key --out} writes it: the raw key bytes, unchanged
   * (a key may end with a byte that looks like whitespace). A file holding the key as 64 hex
   * digits (what the command prints), with or without a final newline, is read too.
   */
  public static byte[] readKey(Path file) {
    byte[] raw;
    try {
      raw = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the node key file " + file, e);
    }
    warnIfShared(file);
    if (raw.length == NODE_KEY_BYTES) {
      return raw;
    }
    String text = new String(raw, StandardCharsets.US_ASCII).strip();
    if (text.length() == 2 * NODE_KEY_BYTES) {
      try {
        return HexFormat.of().parseHex(text);
      } catch (IllegalArgumentException e) {
        // not hex: reported below
      }
    }
    throw new IllegalArgumentException("the node key file " + file + " holds " + raw.length
        + " bytes; a node key is " + NODE_KEY_BYTES + " raw bytes (or 64 hex digits), as"
        + " 'locus agent node-key' writes it");
  }

  private static void warnIfShared(Path file) {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.contains(PosixFilePermission.GROUP_READ)
          || perms.contains(PosixFilePermission.OTHERS_READ)) {
        LOG.warn("the key file {} is readable by others than its owner; chmod 600 it", file);
      }
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("cannot check the permissions of {}", file, e);
    }
  }
}
