package io.locus.sim.output;

import java.util.List;

/** Markdown tables of the experiments' reports: the first column left-aligned, the rest right. */
public final class Markdown {
  private Markdown() {}

  public static String table(List<String> header, List<List<String>> rows) {
    StringBuilder sb = new StringBuilder();
    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
    for (int i = 0; i < header.size(); i++) {
      sb.append(i == 0 ? "---|" : "---:|");
    }
    sb.append('\n');
    for (List<String> row : rows) {
      sb.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return sb.toString();
  }
}
