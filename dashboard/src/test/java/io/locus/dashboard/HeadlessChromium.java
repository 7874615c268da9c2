package io.locus.dashboard;

import java.nio.file.Path;
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

  /** A new browser with a fresh profile in {@code profile} and a window of the given size. */
  static ChromeDriver start(Path profile, int width, int height) {
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
