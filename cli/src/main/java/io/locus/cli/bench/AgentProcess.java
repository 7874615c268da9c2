package io.locus.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A node-agent process ({@code io.locus.agent.AgentCli}) started from this JVM's own class path,
 * so the agents cost the bench's scheduler JVM nothing. Its stdout and stderr go to a log file;
 * if it dies, {@link #checkAlive()} fails with the log's tail. {@link #close()} stops it (SIGTERM,
 * then SIGKILL) and waits until it is gone.
 */
public final class AgentProcess implements AutoCloseable {
  private static final int TAIL_BYTES = 4000;
  private final String name;
  private final Process process;
  private final Path log;

  private AgentProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code java <jvmArgs> -cp <class path> io.locus.agent.AgentCli <args>}.
   *
   * @param name for messages, e.g. "simulated agents of bench-0"
   */
  public static AgentProcess start(String name, List<String> jvmArgs, List<String> args,
      Path log) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.locus");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("io.locus.agent.AgentCli");
    cmd.addAll(args);
    try {
      Files.createDirectories(log.toAbsolutePath().getParent());
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      return new AgentProcess(name, p, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
    }
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** Fails, with the exit code and the end of the log, if the process has ended. */
  public void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(name + " (pid " + process.pid() + ") exited with code "
          + process.exitValue() + "; end of " + log + ":\n" + tail());
    }
  }

  /** The last few KB of the log. */
  public String tail() {
    try {
      byte[] all = Files.readAllBytes(log);
      int from = Math.max(0, all.length - TAIL_BYTES);
      return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(log unreadable: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
