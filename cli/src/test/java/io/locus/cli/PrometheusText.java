package io.locus.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One scrape of a Prometheus text endpoint (format 0.0.4), parsed into samples. */
public final class PrometheusText {
  /** A sample: metric name, its labels, its value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  private final List<Sample> samples;
  private final String text;

  private PrometheusText(String text) {
    this.text = text;
    this.samples = parse(text);
  }

  /** GET {@code url}; an IOException when nothing answers or the status is not 200. */
  public static PrometheusText scrape(String url) throws IOException, InterruptedException {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(url + " answered " + r.statusCode());
    }
    return new PrometheusText(r.body());
  }

  public List<Sample> samples() {
    return samples;
  }

  /** The samples named {@code name} whose labels include every one of {@code labels}. */
  public List<Sample> find(String name, Map<String, String> labels) {
    List<Sample> out = new ArrayList<>();
    for (Sample s : samples) {
      if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
        out.add(s);
      }
    }
    return out;
  }

  /** The sum of those samples' values (0 when there is none). */
  public double sum(String name, Map<String, String> labels) {
    return find(name, labels).stream().mapToDouble(Sample::value).sum();
  }

  public boolean has(String name, Map<String, String> labels) {
    return !find(name, labels).isEmpty();
  }

  /** The lines that mention {@code part} (for failure messages). */
  public String linesWith(String part) {
    StringBuilder b = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.contains(part) && !line.startsWith("#")) {
        b.append(line).append('\n');
      }
    }
    return b.toString();
  }

  static List<Sample> parse(String text) {
    List<Sample> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      line = line.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      String name;
      Map<String, String> labels = new LinkedHashMap<>();
      if (brace >= 0 && brace < space) {
        name = line.substring(0, brace);
        int end = labels(line, brace + 1, labels);
        space = line.indexOf(' ', end);
      } else {
        name = line.substring(0, space);
      }
      String value = line.substring(space + 1).strip().split(" ")[0];
      out.add(new Sample(name, labels, parseValue(value)));
    }
    return out;
  }

  private static double parseValue(String v) {
    return switch (v) {
      case "NaN" -> Double.NaN;
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(v);
    };
  }

  /** Reads {@code k="v",...} from {@code i} up to the closing brace; returns the index after it. */
  private static int labels(String line, int i, Map<String, String> into) {
    while (line.charAt(i) != '}') {
      if (line.charAt(i) == ',' || line.charAt(i) == ' ') {
        i++;
        continue;
      }
      int eq = line.indexOf('=', i);
      String key = line.substring(i, eq).strip();
      StringBuilder v = new StringBuilder();
      int j = eq + 2; // past ="
      while (line.charAt(j) != '"') {
        char c = line.charAt(j);
        if (c == '\\') {
          char n = line.charAt(++j);
          v.append(n == 'n' ? '\n' : n);
        } else {
          v.append(c);
        }
        j++;
      }
      into.put(key, v.toString());
      i = j + 1;
    }
    return i + 1;
  }
}
