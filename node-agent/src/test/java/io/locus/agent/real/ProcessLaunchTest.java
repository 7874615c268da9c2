package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The agent starts task processes with vfork on Linux up to JDK 21, unless told otherwise. */
class ProcessLaunchTest {
  @Test
  void vforkOnLinuxUnlessSetOrElsewhere() {
    Properties p = new Properties();
    assertThat(ProcessLaunch.choose(p, "Linux", 17)).isEqualTo("VFORK");
    assertThat(p.getProperty(ProcessLaunch.PROPERTY)).isEqualTo("VFORK");

    Properties given = new Properties();
    given.setProperty(ProcessLaunch.PROPERTY, "POSIX_SPAWN");
    assertThat(ProcessLaunch.choose(given, "Linux", 17)).isEqualTo("POSIX_SPAWN");
    assertThat(given.getProperty(ProcessLaunch.PROPERTY)).isEqualTo("POSIX_SPAWN");

    Properties mac = new Properties();
    assertThat(ProcessLaunch.choose(mac, "Mac OS X", 17)).isNull();
    assertThat(mac.getProperty(ProcessLaunch.PROPERTY)).isNull();

    Properties newer = new Properties();
    assertThat(ProcessLaunch.choose(newer, "Linux", 22)).isNull();
    assertThat(newer.getProperty(ProcessLaunch.PROPERTY)).isNull();
  }
}
