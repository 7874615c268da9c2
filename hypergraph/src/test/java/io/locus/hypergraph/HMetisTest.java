package io.locus.hypergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HMetisTest {
  private static void assertSame(Hypergraph a, Hypergraph b) {
    assertThat(b.numVertices()).isEqualTo(a.numVertices());
    assertThat(b.numNets()).isEqualTo(a.numNets());
    for (int v = 0; v < a.numVertices(); v++) {
      assertThat(b.weight(v)).isEqualTo(a.weight(v));
    }
    for (int e = 0; e < a.numNets(); e++) {
      assertThat(b.cost(e)).isEqualTo(a.cost(e));
      assertThat(b.pins(e)).containsExactly(a.pins(e));
    }
  }

  @Test
  void roundTripIsExactForIntegralAndRealWeights() throws IOException {
    SplittableRandom rng = new SplittableRandom(3);
    for (int t = 0; t < 20; t++) {
      boolean real = t % 2 == 1;
      Hypergraph h = Instances.random(5 + rng.nextInt(50), 1 + rng.nextInt(80), 6,
          real ? 0.1 : 1, real ? 7.3 : 1, t % 3 == 0 ? 1 : 64, rng);
      String text = HMetis.toString(h);
      assertSame(h, HMetis.read(new StringReader(text)));
    }
  }

  @Test
  void writesTheFmtCodeOnlyWhenNeeded() throws IOException {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(3, 1);
    b.addNet(1, 0, 1);
    b.addNet(1, 1, 2);
    assertThat(HMetis.toString(b.build())).isEqualTo("2 3\n1 2\n2 3\n");
    b.addNet(4, 0, 2);
    assertThat(HMetis.toString(b.build())).isEqualTo("3 3 1\n1 1 2\n1 2 3\n4 1 3\n");
    b.setWeight(1, 2.5);
    assertThat(HMetis.toString(b.build()))
        .isEqualTo("3 3 11\n1 1 2\n1 2 3\n4 1 3\n1\n2.5\n1\n");
    Hypergraph.Builder c = Hypergraph.builder();
    c.addVertex(2);
    c.addVertex(3);
    c.addNet(1, 0, 1);
    assertThat(HMetis.toString(c.build())).isEqualTo("1 2 10\n1 2\n2\n3\n");
  }

  @Test
  void scaledWriteGivesPositiveIntegersForExternalTools() throws IOException {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertex(1.234);
    b.addVertex(0);
    b.addNet(4, 0, 1);
    StringWriter w = new StringWriter();
    HMetis.write(b.build(), w, 1000, 1);
    assertThat(w.toString()).isEqualTo("1 2 11\n4 1 2\n1234\n1\n");
  }

  @Test
  void readsCommentsAndAllFmtCodes() throws IOException {
    String text = "% a comment\n3 4 11\n% nets\n2 1 2\n1 2 3 4\n5 4 1\n7\n8\n9\n10\n";
    Hypergraph h = HMetis.read(new StringReader(text));
    assertThat(h.numVertices()).isEqualTo(4);
    assertThat(h.pins(1)).containsExactly(1, 2, 3);
    assertThat(h.cost(2)).isEqualTo(5.0);
    assertThat(h.weight(3)).isEqualTo(10.0);
    Hypergraph plain = HMetis.read(new StringReader("1 2\n1 2\n"));
    assertThat(plain.cost(0)).isEqualTo(1.0);
    assertThat(plain.weight(1)).isEqualTo(1.0);
    assertThatThrownBy(() -> HMetis.read(new StringReader("1 2 3\n1 2\n")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HMetis.read(new StringReader("2 2\n1 2\n")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HMetis.read(new StringReader("1 2\n1 3\n")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fixAndPartitionFilesRoundTrip() throws IOException {
    Hypergraph h = Instances.ring(5);
    int[] fixed = {-1, 2, -1, 0, -1};
    StringWriter w = new StringWriter();
    HMetis.writeFixed(5, fixed, w);
    assertThat(w.toString()).isEqualTo("-1\n2\n-1\n0\n-1\n");
    assertThat(HMetis.readFixed(5, new StringReader(w.toString()))).containsExactly(fixed);
    StringWriter none = new StringWriter();
    HMetis.writeFixed(2, null, none);
    assertThat(none.toString()).isEqualTo("-1\n-1\n");

    Partition p = new MultilevelKm1().partition(h, 3, 0.1, fixed, 1);
    StringWriter pw = new StringWriter();
    HMetis.writePartition(p, pw);
    Partition back = HMetis.readPartition(h, 3, new StringReader(pw.toString()));
    assertThat(back).isEqualTo(p);
    assertThat(back.km1()).isEqualTo(p.km1());
    assertThatThrownBy(() -> HMetis.readFixed(5, new StringReader("0\n0\n")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HMetis.readPartition(h, 3, new StringReader("0\n0\n0\n0\n0\n0\n")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
