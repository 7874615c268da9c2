package io.locus.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser test's set-up on a machine without Chromium (issue 21: it asserted on
 * /usr/bin/chromium before anything installed it): the install commands run first, through
 * {@code sudo -n} unless root, and only then is their result checked. Uses stand-in paths and a
 * recording runner, so it neither needs nor touches the real Chromium.
 */
class HeadlessChromiumTest {
  @TempDir Path tmp;

  static final List<String> UPDATE = List.of("apt-get", "update");
  static final List<String> INSTALL =
      List.of("apt-get", "install", "-y", "chromium", "chromium-driver");

  static void executable(Path p) {
    try {
      Files.writeString(p, "#!/bin/sh\n");
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void missingBrowserIsInstalledThroughSudoThenChecked() {
    Path chromium = tmp.resolve("chromium");
    Path driver = tmp.resolve("chromedriver");
    List<List<String>> ran = new ArrayList<>();
    HeadlessChromium.ensureInstalled(chromium, driver, false, cmd -> {
      ran.add(cmd);
      if (cmd.contains("install")) { // what apt-get would leave behind
        executable(chromium);
        executable(driver);
      }
    });
    List<String> sudo = List.of("sudo", "-n");
    assertThat(ran).containsExactly(concat(sudo, UPDATE), concat(sudo, INSTALL));
    assertThat(chromium).isExecutable();
  }

  @Test
  void asRootTheCommandsRunWithoutSudo() {
    Path chromium = tmp.resolve("chromium");
    Path driver = tmp.resolve("chromedriver");
    executable(chromium); // only the driver is missing: still installs both packages
    List<List<String>> ran = new ArrayList<>();
    HeadlessChromium.ensureInstalled(chromium, driver, true, cmd -> {
      ran.add(cmd);
      executable(driver);
    });
    assertThat(ran).containsExactly(UPDATE, INSTALL);
  }

  @Test
  void presentBrowserRunsNothing() {
    Path chromium = tmp.resolve("chromium");
    Path driver = tmp.resolve("chromedriver");
    executable(chromium);
    executable(driver);
    List<List<String>> ran = new ArrayList<>();
    HeadlessChromium.ensureInstalled(chromium, driver, false, ran::add);
    assertThat(ran).isEmpty();
  }

  @Test
  void anInstallThatLeavesThemMissingFailsNamingThePaths() {
    Path chromium = tmp.resolve("chromium");
    Path driver = tmp.resolve("chromedriver");
    List<List<String>> ran = new ArrayList<>();
    assertThatThrownBy(() -> HeadlessChromium.ensureInstalled(chromium, driver, true, ran::add))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(chromium.toString())
        .hasMessageContaining("LOCUS_CHROMIUM");
    assertThat(ran).hasSize(2); // it tried before failing
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
