package io.locus.agent.real;

import java.util.Locale;

/**
 * How the JDK spawns task processes. On Linux, JDK 17 defaults to POSIX_SPAWN through
 * {@code jspawnhelper}: every task costs two exec calls and a handshake over a pipe with that
 * helper. VFORK execs the program directly from a vforked child (the JDK's default before JDK 12):
 * measured with {@code RealAgentThroughput} (one agent, 4 slots, {@code /bin/true}) it ran 85
 * tasks/s instead of 31–36 on this loaded 2-core machine (see node-agent/README.md,
 * "Throughput"). The JDK reads the setting once, when it starts its first process, so it is set
 * at start-up, and an explicit {@code -Djdk.lang.Process.launchMechanism} wins.
 */
public final class ProcessLaunch {
  public static final String PROPERTY = "jdk.lang.Process.launchMechanism";
  public static final String VFORK = "VFORK";

  private ProcessLaunch() {}

  /**
   * Chooses VFORK on Linux unless a launch mechanism is set already.
   *
   * @return the mechanism set now or before, or null when the platform's default applies
   */
  public static String preferVfork() {
    String set = System.getProperty(PROPERTY);
    if (set != null) {
      return set;
    }
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      return null;
    }
    System.setProperty(PROPERTY, VFORK);
    return VFORK;
  }
}
