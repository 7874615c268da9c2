package io.locus.cli.chaos;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Java main class of this JVM's class path ({@code java.class.path}: the locus jar for
 * {@code locus chaos}, the test class path in tests) run as a child process, so that a caller can
 * {@code kill -9} it ({@link #kill}, SIGKILL: no shutdown hook, no flush) and start it again with
 * the same command ({@link #restart}). The child gets the JDK module flags Flink needs (this JVM's,
 * or Flink's list when this JVM got them from the jar's manifest, which a {@code -cp} launch does
 * not read) and trusted Avro packages; its output goes to a log file per child, is kept (the
 * current launch's recent lines) and can be waited on, and each line can be watched
 * ({@link #onLine}).
 */
public final class ChildJvm implements AutoCloseable {
  private static final int TAIL = 200;
  /** Lines of the current launch kept for {@link #awaitLine} (a long run prints many). */
  private static final int KEPT = 20_000;
  /** Flink's JDK flags (as in the locus jar's manifest), for a child started with -cp. */
  private static final List<String> FLINK_JDK_FLAGS = List.of(
      "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
      "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
      "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED", "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  private static final java.util.concurrent.atomic.AtomicInteger STARTED =
      new java.util.concurrent.atomic.AtomicInteger();

  private final String name;
  /** Numbers the children of one test JVM, so their log files do not mix. */
  private final int id = STARTED.incrementAndGet();
  private final List<String> command;
  private final Path logDir;
  private final List<String> lines = new ArrayList<>();
  /** Lines of the current launch dropped from the front of {@link #lines}. */
  private int dropped;
  private volatile java.util.function.Consumer<String> listener = l -> { };
  private final Deque<String> tail = new ArrayDeque<>();
  private Process process;
  private int launches;
  /** The launch whose output has been read to its end (the child exited). */
  private int drained;

  private ChildJvm(String name, List<String> command, Path logDir) {
    this.name = name;
    this.command = List.copyOf(command);
    this.logDir = logDir;
  }

  /**
   * Starts {@code mainClass args} in a child JVM with at most {@code heapMb} of heap, its output
   * in target/child-logs (tests).
   */
  public static ChildJvm start(String name, int heapMb, String mainClass, List<String> args) {
    return start(name, heapMb, mainClass, args, Path.of("target", "child-logs"));
  }

  /** As {@link #start(String, int, String, List)}, its output in {@code logDir}/ID-NAME.log. */
  public static ChildJvm start(String name, int heapMb, String mainClass, List<String> args,
      Path logDir) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heapMb + "m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.locus");
    boolean flags = false;
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
        flags = true;
      }
    }
    if (!flags) {
      cmd.addAll(FLINK_JDK_FLAGS); // `java -jar locus.jar`: the flags came from its manifest
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(args);
    ChildJvm c = new ChildJvm(name, cmd, logDir);
    c.launch();
    return c;
  }

  private synchronized void launch() {
    lines.clear(); // awaitLine looks at the current launch only
    dropped = 0;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
    launches++;
    Process p = process;
    int launch = launches;
    Thread pump = new Thread(() -> pump(p, launch), name + "-output-" + launch);
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Where every line a child prints is kept (target/child-logs/NAME.log of the module, appended
   * per launch), so a failure can be read in full after the run; the tail goes in the assertion.
   */
  public Path logFile() {
    return logDir.resolve(id + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_") + ".log");
  }

  /** Calls {@code l} with every line printed from now on (on the output thread: keep it short). */
  public void onLine(java.util.function.Consumer<String> l) {
    listener = l;
  }

  private void pump(Process p, int launch) {
    Path log = logFile();
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      Files.createDirectories(log.getParent());
      try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
        pumpLines(in, out, launch);
      }
    } catch (IOException e) {
      // the pipe breaks when the child is killed
    } finally {
      synchronized (this) {
        drained = Math.max(drained, launch);
        notifyAll();
      }
    }
  }

  private void pumpLines(BufferedReader in, BufferedWriter out, int launch) throws IOException {
    String line;
    while ((line = in.readLine()) != null) {
      String l = "#" + launch + " " + line;
      out.write(l);
      out.newLine();
      out.flush();
      listener.accept(line);
      synchronized (this) {
        if (launch != launches) {
          continue; // a killed launch's last lines, read after the restart
        }
        lines.add(l);
        if (lines.size() > KEPT) {
          lines.subList(0, KEPT / 2).clear();
          dropped += KEPT / 2;
        }
        tail.addLast(l);
        if (tail.size() > TAIL) {
          tail.removeFirst();
        }
        notifyAll();
      }
    }
  }

  /**
   * Waits until the current launch printed a line containing {@code text}; returns the line.
   * Fails at the deadline, or at once if the child exited, with its last output.
   */
  public synchronized String awaitLine(String text, Duration timeout) throws InterruptedException {
    // Not Await: woken by notifyAll when the child prints a line (no polling), and fails at
    // once when the child exits.
    long deadline = System.nanoTime() + timeout.toNanos();
    String prefix = "#" + launches + " ";
    int from = dropped; // absolute line number of the current launch
    while (true) {
      for (int i = Math.max(from, dropped); i < dropped + lines.size(); i++) {
        String l = lines.get(i - dropped);
        if (l.startsWith(prefix) && l.contains(text)) {
          return l.substring(prefix.length());
        }
      }
      from = dropped + lines.size();
      long left = deadline - System.nanoTime();
      boolean exited = !process.isAlive() && drained >= launches; // every line it printed read
      if (left <= 0 || exited) {
        throw new IllegalStateException(name + (process.isAlive() ? " did not print '" + text
            + "' within " + timeout : " exited (" + process.exitValue() + ")")
            + "\n--- last output ---\n" + tailText());
      }
      wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 500)));
    }
  }

  public synchronized String tailText() {
    return String.join("\n", tail);
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /**
   * Sends {@code signal} (e.g. STOP, CONT) with the system's {@code kill}: a stopped child keeps
   * its sockets and state but does nothing, as a node frozen by its host would.
   */
  public void signal(String signal) throws InterruptedException {
    try {
      Process k = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
          .redirectErrorStream(true).start();
      if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
            + new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill -" + signal, e);
    }
  }

  /** {@code kill -9}: SIGKILL, no shutdown hook runs. */
  public void kill() throws InterruptedException {
    Process p = process;
    p.destroyForcibly();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException(name + " survived SIGKILL");
    }
  }

  /** SIGTERM, then waits for the shutdown hooks (killing it if they hang past the timeout). */
  public int stop(Duration timeout) throws InterruptedException {
    Process p = process;
    p.destroy();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    return p.exitValue();
  }

  /** Waits for the child to end by itself; its exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(name + " still runs after " + timeout + "\n" + tailText());
    }
    return process.exitValue();
  }

  /** Starts the same command again (after a kill or stop). */
  public void restart() {
    if (isAlive()) {
      throw new IllegalStateException(name + " still runs");
    }
    launch();
  }

  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
