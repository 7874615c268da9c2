package io.locus.dashboard;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver: named explicitly, so Selenium
 * Manager never looks for (or downloads) a browser or a driver. The flags keep it off the network
 * (this machine has none) and out of any shared profile.
 */
final class HeadlessChromium {
  static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("LOCUS_CHROMIUM",
      "/usr/bin/chromium"));
  static final Path CHROMEDRIVER = Path.of(System.getenv().getOrDefault("LOCUS_CHROMEDRIVER",
      "/usr/bin/chromedriver"));

  private HeadlessChromium() {}

  /**
   * Installs Debian's {@code chromium} and {@code chromium-driver} when either is missing (the
   * test setup, so that {@code mvn -B verify} works on a clean machine, not only through
   * {@code .ci/run}): as root, or through {@code sudo -n}. Fails with what to do when it cannot.
   */
  static synchronized void ensureInstalled() {
    ensureInstalled(CHROMIUM, CHROMEDRIVER, "root".equals(System.getProperty("user.name")),
        HeadlessChromium::run);
  }

  /** Runs one install command to its end, or throws. */
  interface CommandRunner {
    void run(List<String> cmd);
  }

  /**
   * {@link #ensureInstalled()} with its parts given: the two executables, whether this JVM runs as
   * root (otherwise each command goes through {@code sudo -n}, which fails at once instead of
   * asking for a password), and what runs a command (a test records them).
   */
  static void ensureInstalled(Path chromium, Path chromedriver, boolean root,
      CommandRunner runner) {
    if (Files.isExecutable(chromium) && Files.isExecutable(chromedriver)) {
      return;
    }
    for (List<String> step : List.of(List.of("apt-get", "update"),
        List.of("apt-get", "install", "-y", "chromium", "chromium-driver"))) {
      List<String> cmd = new ArrayList<>();
      if (!root) {
        cmd.addAll(List.of("sudo", "-n"));
      }
      cmd.addAll(step);
      runner.run(cmd);
    }
    if (!Files.isExecutable(chromium) || !Files.isExecutable(chromedriver)) {
      throw new IllegalStateException("Chromium or chromedriver still missing at " + chromium
          + ", " + chromedriver + ": install Debian's chromium and chromium-driver, or set "
          + "LOCUS_CHROMIUM and LOCUS_CHROMEDRIVER");
    }
  }

  private static void run(List<String> cmd) {
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
      pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
      Process p = pb.start();
      if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", cmd) + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + String.join(" ", cmd) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted installing Chromium", e);
    }
  }

  /** A new browser with a fresh profile in {@code profile} and a window of the given size. */
  static ChromeDriver start(Path profile, int width, int height) {
    ensureInstalled();
    ChromeOptions o = new ChromeOptions();
    o.setBinary(CHROMIUM.toFile());
    o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--window-size=" + width + "," + height,
        "--user-data-dir=" + profile);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
    return new ChromeDriver(service, o);
  }
}
