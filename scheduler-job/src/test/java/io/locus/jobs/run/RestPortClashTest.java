package io.locus.jobs.run;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: a second local {@code locus run} on one machine died with Flink's stack trace ("Could
 * not start rest endpoint on any port in port range 8081"), naming neither the flag nor the cause.
 * Now the MiniCluster's bind failure is one line naming --rest-port (a real MiniCluster, a real
 * socket holding the port).
 */
@Tag("integration")
class RestPortClashTest {
  @Test
  void aTakenRestPortIsOneLineNamingTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"))) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> LocalFlink.start(new Configuration(), 1, Integer.toString(port))
          .close())
          .isInstanceOf(StartClash.class)
          .hasMessage("the Flink REST port " + port + " (--rest-port) is in use, most likely by "
              + "another locus run or Flink on this machine; give --rest-port another port, or 0 "
              + "for any free one");
    }
  }
}
