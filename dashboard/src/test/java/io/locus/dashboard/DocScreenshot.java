package io.locus.dashboard;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Takes the documentation's screenshot (docs/img/dashboard.png) of a running dashboard, once the
 * page shows completed tasks: {@code java -cp <dashboard test classpath>
 * io.locus.dashboard.DocScreenshot URL OUT.png} while {@code bin/locus demo} runs. A tool, not a
 * test.
 */
public final class DocScreenshot {
  private DocScreenshot() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DocScreenshot URL OUT.png");
      System.exit(2);
    }
    Path profile = Files.createTempDirectory("locus-chromium-");
    ChromeDriver browser = HeadlessChromium.start(profile, 1400, 1750);
    try {
      browser.get(args[0]);
      new WebDriverWait(browser, Duration.ofSeconds(30)).until(DocScreenshot::showsCompletions);
      Files.write(Path.of(args[1]), browser.getScreenshotAs(OutputType.BYTES));
      System.out.println("wrote " + args[1]);
    } finally {
      browser.quit();
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static boolean showsCompletions(WebDriver d) {
    Object v = browserJs(d, "const e = document.getElementById('completed');"
        + " return e && e.dataset.value ? Number(e.dataset.value) : 0;");
    return v instanceof Number n && n.longValue() > 0;
  }

  private static Object browserJs(WebDriver d, String script) {
    return ((org.openqa.selenium.JavascriptExecutor) d).executeScript(script);
  }
}
