package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code locus status}'s line of queued tasks per pending reason (issue 23). */
class StatusReasonsTest {
  @Test
  void reasonsAreInTheCodesOrderWithTheirLabelsAndUnknownCodesLast() {
    Map<String, Long> by = new LinkedHashMap<>();
    by.put("no-free-slot", 4L);
    by.put("from-the-future", 1L);
    by.put("priority", 0L);
    by.put("locality-wait", 3L);
    by.put("paused", 2L);
    assertThat(StatusCommand.reasons(by)).isEqualTo("2 paused (pool paused), 3 locality-wait "
        + "(waiting for a data holder), 4 no-free-slot (waiting for a free slot), "
        + "1 from-the-future");
    assertThat(StatusCommand.reasons(Map.of())).isEmpty();
    assertThat(StatusCommand.reasons(null)).isEmpty();
  }
}
