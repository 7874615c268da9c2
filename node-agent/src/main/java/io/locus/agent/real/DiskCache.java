package io.locus.agent.real;

import io.locus.agent.CacheStore;
import io.locus.agent.StageRequest;
import io.locus.schemas.limits.FileIds;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache directory of a real agent.
 *
 * <pre>
 * &lt;cache-dir&gt;/
 *   &lt;file name&gt;    cached files, read-only, named by their id's {@link FileIds#fileName}
 *   .incoming/      downloads in progress and inputs streamed without caching; emptied at start
 * </pre>
 *
 * <p>A fetch writes to a fresh name in {@code .incoming} and verifies size and checksum there (see
 * {@link RealStager}); the agent then either commits it (an atomic rename into the directory, after
 * the victims it displaced are deleted: the cached files never exceed the quota) or attaches it to
 * its task, which deletes it when it ends. A crash therefore leaves only whole cache files and
 * {@code .incoming} leftovers, which {@link #scan()} deletes.
 *
 * <p>Thread-safe: the agent calls the {@link CacheStore} methods under its lock, stager and
 * executor threads call the others.
 */
public final class DiskCache implements CacheStore {
  private static final Logger LOG = LoggerFactory.getLogger(DiskCache.class);
  public static final String INCOMING = ".incoming";
  private static final Set<PosixFilePermission> READ_ONLY = Set.of(
      PosixFilePermission.OWNER_READ, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OTHERS_READ);

  private final Path root;
  private final Path incoming;
  /** Bytes a fetch landed, by the identity of the fetch, until the agent says what they become. */
  private final Map<StageRequest, Path> landed = new IdentityHashMap<>();
  /** Task key → file id → the uncached copy the task reads. */
  private final Map<String, Map<String, Path>> attached = new HashMap<>();

  /** A file found by {@link #scan()}. */
  public record Entry(String fileId, long bytes, FileTime lastModified) {}

  /** What {@link #scan()} found. */
  public record Scan(List<Entry> files, List<String> ignored, int partialsDropped) {}

  public DiskCache(Path root) {
    try {
      Files.createDirectories(root);
      this.root = root.toRealPath();
      this.incoming = this.root.resolve(INCOMING);
      Files.createDirectories(incoming);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the cache directory " + root, e);
    }
    if (Files.isSymbolicLink(incoming) || !Files.isDirectory(incoming, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalStateException(incoming + " must be a directory, not a link");
    }
  }

  public Path root() {
    return root;
  }

  /** The cache file of a safe id (whether or not it exists). */
  public Path pathOf(String fileId) {
    String problem = FileIds.problem(fileId);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    Path p = root.resolve(FileIds.fileName(fileId));
    // FileIds already guarantees this; a second, independent check costs nothing.
    if (!root.equals(p.getParent())) {
      throw new IllegalArgumentException("'" + fileId + "' escapes the cache directory");
    }
    return p;
  }

  /** Whether the cache file of {@code fileId} exists as a symbolic link (never followed). */
  public boolean isSymlink(String fileId) {
    return Files.isSymbolicLink(pathOf(fileId));
  }

  /**
   * Empties {@code .incoming} (partial downloads of a previous run) and lists the cached files,
   * oldest modification first (the agent refreshes it on every hit, so this is an LRU order).
   * Links, directories and names that are not safe file ids are ignored, never followed.
   */
  public synchronized Scan scan() {
    int dropped = dropIncoming();
    List<Entry> files = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        if (name.equals(INCOMING)) {
          continue;
        }
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
        String id = FileIds.idOf(name);
        if (!a.isRegularFile() || id == null) {
          ignored.add(name);
          LOG.warn("cache {}: ignoring {} (not a regular file named as a safe id)", root,
              FileIds.printable(name));
          continue;
        }
        files.add(new Entry(id, a.size(), a.lastModifiedTime()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the cache directory " + root, e);
    }
    files.sort(Comparator.comparing(Entry::lastModified).thenComparing(Entry::fileId));
    return new Scan(files, ignored, dropped);
  }

  /** Empties {@code .incoming}; returns how many entries it held. */
  public synchronized int dropIncoming() {
    int dropped = 0;
    landed.clear();
    attached.clear();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(incoming)) {
      for (Path p : ds) {
        deleteTree(p);
        dropped++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot empty " + incoming, e);
    }
    return dropped;
  }

  /** A fresh temporary name in {@code .incoming} for a download of {@code fileId}. */
  public Path newIncoming(String fileId) {
    // The id is kept in the name for people looking at the directory; the UUID makes it unique.
    return incoming.resolve(UUID.randomUUID() + ".part");
  }

  /** The fetch's verified bytes are at {@code file}; they wait for the agent's decision. */
  public synchronized void landed(StageRequest fetch, Path file) {
    Path old = landed.put(fetch, file);
    if (old != null && !old.equals(file)) {
      delete(old);
    }
  }

  /**
   * A task's output, written at {@code written} (a run's output directory), becomes the bytes of
   * {@code output}: moved into {@code .incoming} (a rename on one file system, else a copy), to
   * wait for the agent to commit or discard it like a fetch's bytes.
   */
  public void landOutput(StageRequest output, Path written) throws IOException {
    Path dst = newIncoming(output.fileId());
    Files.move(written, dst, LinkOption.NOFOLLOW_LINKS);
    landed(output, dst);
  }

  /**
   * A local hit: the cache file must be a regular file (not a link) of the expected size. Refreshes
   * its modification time, which orders the LRU after a restart.
   *
   * @return null when it is usable, else why not
   */
  public String checkLocal(String fileId, long bytes) {
    return checkLocal(fileId, bytes, null);
  }

  /**
   * A local hit checked against the decision's checksum too: size first, then the SHA-256 of the
   * file, which is remembered per file, size and modification time, so an unchanged file is hashed
   * once, not at every task. A file that is not what the plan says is removed from the disk (the
   * caller forgets it and stages it again).
   *
   * @param sha256 the expected lowercase hex digest; null: no content check
   * @return null when it is usable, else why not
   */
  public String checkLocal(String fileId, long bytes, String sha256) {
    Path p = pathOf(fileId);
    try {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      if (!a.isRegularFile()) {
        return p + " is not a regular file";
      }
      if (a.size() != bytes) {
        return p + " has " + a.size() + " bytes, the plan says " + bytes;
      }
      if (sha256 != null) {
        Verified v = verified.get(fileId);
        String digest = v != null && v.size() == a.size() && v.mtime().equals(a.lastModifiedTime())
            ? v.sha256() : sha256Of(p);
        if (!digest.equals(sha256)) {
          verified.remove(fileId);
          delete(p);
          return p + " has sha256 " + digest + ", the plan says " + sha256 + "; removed";
        }
        touch(p);
        verified.put(fileId, new Verified(a.size(), Files.getLastModifiedTime(p,
            LinkOption.NOFOLLOW_LINKS), digest));
        return null;
      }
      touch(p);
      return null;
    } catch (NoSuchFileException e) {
      return p + " is missing";
    } catch (IOException e) {
      return "cannot read " + p + ": " + e;
    }
  }

  /** A cache file's digest, valid while its size and modification time are these. */
  private record Verified(long size, FileTime mtime, String sha256) {}

  private final Map<String, Verified> verified = new ConcurrentHashMap<>();

  /** How many times a cached file was hashed to check a local hit (tests: the memo works). */
  private final java.util.concurrent.atomic.AtomicLong hashes =
      new java.util.concurrent.atomic.AtomicLong();

  public long localHashes() {
    return hashes.get();
  }

  private String sha256Of(Path p) throws IOException {
    hashes.incrementAndGet();
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
      byte[] buf = new byte[256 * 1024];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static void touch(Path p) {
    try {
      Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis()));
    } catch (IOException e) {
      LOG.debug("cannot touch {}", p, e);
    }
  }

  // ---- CacheStore ------------------------------------------------------------------------------

  @Override
  public synchronized void commit(StageRequest fetch) {
    Path src = landed.remove(fetch);
    if (src == null) {
      LOG.warn("cache {}: nothing landed for {}", root, fetch.fileId());
      return;
    }
    Path dst = pathOf(fetch.fileId());
    try {
      makeReadOnly(src);
      try {
        // rename(2) is atomic and replaces whatever has the name (a stale stray file, or a planted
        // link: the link itself, never what it points to); a task reading an older copy keeps
        // reading it through its open descriptor.
        Files.move(src, dst, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException(".incoming and the cache are on different file systems", e);
      }
    } catch (IOException e) {
      LOG.error("cache {}: cannot commit {}: {}", root, fetch.fileId(), e.toString());
      delete(src);
    }
  }

  private static void makeReadOnly(Path p) {
    // Tasks read cache files in place: read-only keeps a careless task from changing a shared copy.
    try {
      Files.setPosixFilePermissions(p, READ_ONLY);
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("cannot make {} read-only", p, e);
    }
  }

  @Override
  public synchronized void attach(String taskKey, StageRequest fetch) {
    Path src = landed.remove(fetch);
    if (src == null) {
      LOG.warn("cache {}: nothing landed for {} of {}", root, fetch.fileId(), taskKey);
      return;
    }
    Path old = attached.computeIfAbsent(taskKey, k -> new HashMap<>()).put(fetch.fileId(), src);
    if (old != null) {
      delete(old);
    }
  }

  @Override
  public synchronized void discard(StageRequest fetch) {
    Path src = landed.remove(fetch);
    if (src != null) {
      delete(src);
    }
  }

  @Override
  public synchronized void evicted(String fileId) {
    verified.remove(fileId);
    if (FileIds.isSafe(fileId)) {
      delete(pathOf(fileId));
    }
  }

  @Override
  public synchronized void released(String taskKey) {
    Map<String, Path> files = attached.remove(taskKey);
    if (files != null) {
      files.values().forEach(DiskCache::delete);
    }
  }

  // ---- for the executor and the peer server ----------------------------------------------------

  /**
   * The file a task reads for {@code fileId}: its own uncached copy, else the cache file.
   *
   * @throws NoSuchFileException when neither is there
   */
  public synchronized Path inputPath(String taskKey, String fileId) throws NoSuchFileException {
    Map<String, Path> own = attached.get(taskKey);
    if (own != null && own.containsKey(fileId)) {
      return own.get(fileId);
    }
    Path p = pathOf(fileId);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(p.toString(), null, "input " + fileId + " is not staged");
    }
    return p;
  }

  /** Bytes of the cached (committed) files on disk now. */
  public long diskBytes() {
    long sum = 0;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
      for (Path p : ds) {
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          continue;   // evicted while listing
        }
        if (a.isRegularFile()) {
          sum += a.size();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sum;
  }

  /** Files now in {@code .incoming}. */
  public int incomingFiles() {
    try (var s = Files.list(incoming)) {
      return (int) s.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      LOG.error("cannot delete {}: {}", p, e.toString());
    }
  }

  /** Deletes a tree without following links (a link is removed, not what it points to). */
  static void deleteTree(Path top) {
    try {
      if (!Files.exists(top, LinkOption.NOFOLLOW_LINKS)) {
        return;
      }
      Files.walkFileTree(top, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(f);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
          Files.deleteIfExists(f);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          // A task may leave read-only directories behind.
          d.toFile().setWritable(true);
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
          d.toFile().setWritable(true);
          d.toFile().setExecutable(true);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", top, e.toString());
    }
  }
}
