package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProcessLaunchTest {
  private String before;

  @BeforeEach
  void save() {
    before = System.getProperty(ProcessLaunch.PROPERTY);
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(ProcessLaunch.PROPERTY);
    } else {
      System.setProperty(ProcessLaunch.PROPERTY, before);
    }
  }

  @Test
  void vforkIsChosenOnLinuxUnlessAMechanismIsSetExplicitly() {
    System.clearProperty(ProcessLaunch.PROPERTY);
    assertThat(ProcessLaunch.preferVfork()).isEqualTo("VFORK");
    assertThat(System.getProperty(ProcessLaunch.PROPERTY)).isEqualTo("VFORK");

    System.setProperty(ProcessLaunch.PROPERTY, "POSIX_SPAWN");
    assertThat(ProcessLaunch.preferVfork()).isEqualTo("POSIX_SPAWN");
    assertThat(System.getProperty(ProcessLaunch.PROPERTY)).isEqualTo("POSIX_SPAWN");
  }
}
