package io.locus.agent.real;

import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import io.locus.agent.StageRequest;
import io.locus.agent.Stager;
import io.locus.agent.security.PeerAuth;
import io.locus.schemas.FetchSource;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real reads of input files: a local hit is checked on disk; a peer read is an HTTP GET of
 * {@code <peer endpoint>/cache/<file id>}; a storage read copies from a {@code file:} path or
 * an {@code http(s):} URL (see {@link StorageLocations}).
 *
 * <p>Every transfer writes to a fresh name in the cache's {@code .incoming} directory, counts and
 * (when the plan has a checksum) hashes the bytes as they arrive, and ends DONE only when the size is
 * exactly the planned one and the SHA-256 matches; the file then waits in {@link DiskCache} for the
 * agent to commit or attach it. Any failure of a peer read (404, an unknown endpoint, a peer down or
 * refusing us, a bad copy) is NOT_FOUND: the index is a hint, and the agent falls back to storage.
 * Storage answering 404 or a missing file is NOT_FOUND too (the task fails with "storage has no
 * ..."); anything else from storage is FAILED, with the reason in {@link #failureReason}.
 *
 * <p>Transfers run on a bounded pool (at most {@code max-concurrent-transfers} at once); an HTTP
 * transfer whose connection breaks is resumed with a range request, up to the configured attempts.
 * Redirects are not followed: a redirect could lead outside the allowed locations. A transfer that
 * takes longer than the transfer timeout is aborted.
 */
public final class RealStager implements Stager {
  private static final Logger LOG = LoggerFactory.getLogger(RealStager.class);
  private static final int BUFFER = 256 * 1024;

  private final String node;
  private final DiskCache disk;
  private final StorageLocations storage;
  private final PeerEndpoints peers;
  private final HttpClient http;
  private final ExecutorService transfers;
  private final ExecutorService quick;
  private final AgentScheduler scheduler;
  private final TransferStats stats;
  private final PeerAuth peerAuth;
  private final Duration requestTimeout;
  private final Duration transferTimeout;
  private final int attempts;
  private final Map<StageRequest, String> failures = new IdentityHashMap<>();

  /** Something the transfer cannot get around; the message goes to the task event. */
  private static final class Failed extends Exception {
    final boolean notFound;

    Failed(String message, boolean notFound) {
      super(message);
      this.notFound = notFound;
    }
  }

  /**
   * @param transfers runs transfers; its size bounds how many run at once
   * @param quick runs local-hit checks (so they do not queue behind long transfers)
   * @param peerAuth signs peer requests when the pool has a secret; null otherwise
   */
  public RealStager(String node, DiskCache disk, StorageLocations storage, PeerEndpoints peers,
      HttpClient http, ExecutorService transfers, ExecutorService quick, AgentScheduler scheduler,
      TransferStats stats, PeerAuth peerAuth, Duration requestTimeout, Duration transferTimeout,
      int attempts) {
    this.node = node;
    this.disk = disk;
    this.storage = storage;
    this.peers = peers;
    this.http = http;
    this.transfers = transfers;
    this.quick = quick;
    this.scheduler = scheduler;
    this.stats = stats;
    this.peerAuth = peerAuth;
    this.requestTimeout = requestTimeout;
    this.transferTimeout = transferTimeout;
    this.attempts = Math.max(1, attempts);
  }

  @Override
  public Cancellable fetch(StageRequest fetch, Consumer<StageRequest.Outcome> done) {
    Transfer t = new Transfer(fetch, done);
    try {
      t.future = (fetch.source() == FetchSource.LOCAL ? quick : transfers).submit(t);
    } catch (RejectedExecutionException e) {
      // The agent is shutting down; nobody waits for this outcome.
      LOG.debug("{}: fetch of {} rejected: shutting down", node, fetch.fileId());
    }
    return t;
  }

  @Override
  public String failureReason(StageRequest fetch) {
    synchronized (failures) {
      return failures.remove(fetch);
    }
  }

  private final class Transfer implements Runnable, Cancellable {
    final StageRequest fetch;
    final Consumer<StageRequest.Outcome> done;
    volatile Future<?> future;
    volatile boolean cancelled;
    volatile boolean timedOut;
    volatile boolean stalled;
    volatile Closeable current;
    volatile long written;
    private long lastSeen = -1;

    Transfer(StageRequest fetch, Consumer<StageRequest.Outcome> done) {
      this.fetch = fetch;
      this.done = done;
    }

    @Override
    public void cancel() {
      cancelled = true;
      closeQuietly(current);
      Future<?> f = future;
      if (f != null) {
        f.cancel(true);
      }
      disk.discard(fetch);
    }

    @Override
    public void run() {
      if (cancelled) {
        return;
      }
      if (fetch.source() == FetchSource.LOCAL) {
        String problem = disk.checkLocal(fetch.fileId(), fetch.bytes(),
            fetch.checksum() == null ? null : expectedSha256(fetch.checksum()));
        if (problem != null) {
          LOG.info("{}: cached copy of {} unusable: {}", node, fetch.fileId(), problem);
        }
        finish(problem == null ? StageRequest.Outcome.DONE : StageRequest.Outcome.NOT_FOUND, null);
        return;
      }
      stats.active.incrementAndGet();
      Path tmp = disk.newIncoming(fetch.fileId());
      Cancellable watchdog = scheduler.schedule(transferTimeout.toNanos(), () -> {
        timedOut = true;
        closeQuietly(current);
      });
      // A source that stops sending without closing would hold the transfer until the overall
      // timeout: no new byte for a request timeout aborts this attempt (an HTTP one resumes).
      Cancellable stallCheck = scheduler.scheduleAtFixedRate(requestTimeout.toNanos(), () -> {
        long w = written;
        if (w == lastSeen && current != null) {
          stalled = true;
          closeQuietly(current);
        }
        lastSeen = w;
      });
      StageRequest.Outcome outcome;
      String why = null;
      try {
        MessageDigest md = fetch.checksum() == null ? null : sha256();
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE)) {
          if (fetch.source() == FetchSource.PEER) {
            fromPeer(out, md);
          } else {
            fromStorage(out, md);
          }
          out.force(false);
        }
        verify(md);
        disk.landed(fetch, tmp);
        outcome = StageRequest.Outcome.DONE;
      } catch (Failed e) {
        outcome = e.notFound ? StageRequest.Outcome.NOT_FOUND : StageRequest.Outcome.FAILED;
        why = e.getMessage();
      } catch (IOException | RuntimeException e) {
        outcome = StageRequest.Outcome.FAILED;
        why = timedOut ? "timed out after " + transferTimeout
            : stalled ? "no data for " + requestTimeout + " (after " + written + " bytes)"
            : e instanceof IOException && e.getCause() != null ? e.getMessage() : describe(e);
      } catch (InterruptedException e) {
        outcome = StageRequest.Outcome.FAILED;
        why = "interrupted";
      } finally {
        watchdog.cancel();
        stallCheck.cancel();
        stats.active.decrementAndGet();
        Thread.interrupted();   // a cancel's interrupt must not leak into the pool's next task
      }
      if (outcome != StageRequest.Outcome.DONE) {
        DiskCache.delete(tmp);
      }
      (switch (outcome) {
        case DONE -> stats.ok;
        case NOT_FOUND -> stats.notFound;
        case FAILED -> stats.failed;
      }).get(fetch.source()).increment();
      if (outcome == StageRequest.Outcome.FAILED && !cancelled) {
        LOG.warn("{}: fetching {} from {} failed: {}", node, fetch.fileId(),
            fetch.source() == FetchSource.PEER ? "peer " + fetch.peerNode() : "storage", why);
      } else if (outcome == StageRequest.Outcome.NOT_FOUND) {
        LOG.debug("{}: {} not found at {}: {}", node, fetch.fileId(), fetch.source(), why);
      }
      if (fetch.source() == FetchSource.PEER && outcome == StageRequest.Outcome.FAILED) {
        // A peer is a hint, storage the authority: a peer that is down, refuses us, or sends a
        // bad copy sends the agent to storage rather than failing the task.
        outcome = StageRequest.Outcome.NOT_FOUND;
      }
      finish(outcome, why);
    }

    private void finish(StageRequest.Outcome outcome, String why) {
      if (cancelled) {
        disk.discard(fetch);
        return;
      }
      if (why != null && outcome == StageRequest.Outcome.FAILED) {
        synchronized (failures) {
          failures.put(fetch, why);
        }
      }
      done.accept(outcome);
    }

    private void fromStorage(FileChannel out, MessageDigest md)
        throws Failed, IOException, InterruptedException {
      StorageLocations.StoredFile src;
      try {
        src = storage.resolve(fetch.location(), fetch.fileId());
      } catch (StorageLocations.Refused e) {
        throw new Failed(e.getMessage(), false);
      }
      if (src instanceof StorageLocations.HttpFile h) {
        fromHttp(h.uri(), out, md, false);
        return;
      }
      Path real;
      try {
        real = storage.realFile((StorageLocations.LocalFile) src);
      } catch (NoSuchFileException e) {
        throw new Failed(((StorageLocations.LocalFile) src).path() + " does not exist", true);
      } catch (StorageLocations.Refused e) {
        throw new Failed(e.getMessage(), false);
      }
      if (!Files.isRegularFile(real)) {
        throw new Failed(real + " is not a regular file", false);
      }
      try (InputStream in = Files.newInputStream(real)) {
        current = in;
        copy(in, out, md);
      } finally {
        current = null;
      }
    }

    private void fromPeer(FileChannel out, MessageDigest md)
        throws Failed, IOException, InterruptedException {
      String ep = peers.endpoint(fetch.peerNode());
      if (ep == null) {
        throw new Failed("no endpoint known for peer " + fetch.peerNode(), true);
      }
      URI u = URI.create((ep.endsWith("/") ? ep : ep + "/") + "cache/"
          + StorageLocations.encodeSegment(fetch.fileId()));
      fromHttp(u, out, md, true);
    }

    private void fromHttp(URI u, FileChannel out, MessageDigest md, boolean peer)
        throws Failed, IOException, InterruptedException {
      for (int attempt = 1; ; attempt++) {
        HttpRequest.Builder rb = HttpRequest.newBuilder(u).timeout(requestTimeout).GET();
        if (written > 0) {
          rb.header("Range", "bytes=" + written + "-");
        }
        if (peer && peerAuth != null) {
          rb.header(PeerAuth.HEADER,
              peerAuth.header(u.getRawPath(), System.currentTimeMillis() / 1000));
        }
        try {
          current = null;
          HttpResponse<InputStream> resp = http.send(rb.build(),
              HttpResponse.BodyHandlers.ofInputStream());
          try (InputStream in = resp.body()) {
            current = in;
            stalled = false;
            int code = resp.statusCode();
            if (code == 404 || code == 410) {
              throw new Failed((peer ? "peer " + fetch.peerNode() : u) + " answered " + code,
                  true);
            }
            if (written > 0 && code == 200) {
              // The server ignored the range: start over.
              out.truncate(0);
              out.position(0);
              written = 0;
              if (md != null) {
                md.reset();
              }
            } else if (written > 0 && code != 206) {
              throw new Failed(u + " answered " + code + " to a range request", false);
            } else if (written == 0 && code != 200) {
              throw new Failed(u + " answered " + code, false);
            } else if (written > 0) {
              stats.resumed.increment();
            }
            copy(in, out, md);
            current = null;
            return;
          }
        } catch (IOException e) {
          if (cancelled || timedOut || attempt >= attempts) {
            throw new IOException(u + ": " + describe(e), e);
          }
          LOG.info("{}: transfer of {} from {} broke after {} bytes ({}); attempt {} of {}",
              node, fetch.fileId(), u, written, stalled ? "stalled" : e.toString(), attempt + 1,
              attempts);
        }
      }
    }

    private void copy(InputStream in, FileChannel out, MessageDigest md)
        throws IOException, Failed {
      byte[] buf = new byte[BUFFER];
      long limit = fetch.bytes();
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (cancelled) {
          throw new IOException("cancelled");
        }
        if (written + n > limit) {
          throw new Failed(fetch.fileId() + " from " + fetch.source() + " is larger than the "
              + limit + " bytes planned", false);
        }
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
        while (bb.hasRemaining()) {
          out.write(bb);
        }
        if (md != null) {
          md.update(buf, 0, n);
        }
        written += n;
        stats.bytes.get(fetch.source()).add(n);
      }
    }

    private void verify(MessageDigest md) throws Failed {
      if (written != fetch.bytes()) {
        throw new Failed("size mismatch for " + fetch.fileId() + ": got " + written
            + " bytes, planned " + fetch.bytes(), false);
      }
      if (md != null) {
        String got = HexFormat.of().formatHex(md.digest());
        String want = expectedSha256(fetch.checksum());
        if (!got.equals(want)) {
          throw new Failed("checksum mismatch for " + fetch.fileId() + ": sha256 " + got
              + ", expected " + want, false);
        }
      }
    }
  }

  /** An exception for a message: some (ConnectException from HttpClient) carry no text. */
  private static String describe(Throwable e) {
    String m = e.getMessage();
    if (m == null && e.getCause() != null && e.getCause() != e) {
      return e.getClass().getSimpleName() + " (" + describe(e.getCause()) + ")";
    }
    return m == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + m;
  }

  /** The hex digest of a plan's checksum: 64 hex digits, optionally prefixed "sha256:". */
  static String expectedSha256(String checksum) {
    String c = checksum.trim().toLowerCase(Locale.ROOT);
    return c.startsWith("sha256:") ? c.substring(7) : c;
  }

  /** Whether a plan's checksum is one this agent can verify. */
  static boolean isSupportedChecksum(String checksum) {
    return checksum == null || expectedSha256(checksum).matches("[0-9a-f]{64}");
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static void closeQuietly(Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        LOG.trace("close", e);
      }
    }
  }
}
