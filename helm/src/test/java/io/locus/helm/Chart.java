package io.locus.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The chart under test (helm/locus), rendered and linted with Helm's own library (helm-java), and
 * its manifests parsed with Jackson.
 */
final class Chart {
  static final YAMLMapper YAML = new YAMLMapper();
  static final ObjectMapper JSON = new ObjectMapper();
  static final String RELEASE = "prod";
  static final String NAMESPACE = "locus";
  static final String FULLNAME = "prod-locus";
  /** helm template assumes Kubernetes 1.20 unless told; the chart needs 1.25 or later. */
  static final String KUBE_VERSION = "1.30.0";

  private Chart() {}

  /** helm/locus, from the module's directory (surefire runs there) or the repository root. */
  static Path dir() {
    Path p = Path.of("locus");
    if (!Files.isDirectory(p)) {
      p = Path.of("helm", "locus");
    }
    if (!Files.isRegularFile(p.resolve("Chart.yaml"))) {
      throw new IllegalStateException("helm/locus/Chart.yaml not found from " + Path.of("").toAbsolutePath());
    }
    return p.toAbsolutePath();
  }

  /** The chart's values.yaml as a tree. */
  static ObjectNode defaults() {
    try {
      return (ObjectNode) YAML.readTree(dir().resolve("values.yaml").toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A values tree from YAML text, e.g. an override set written in a test. */
  static ObjectNode values(String yaml) {
    try {
      return (ObjectNode) YAML.readTree(yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code helm template} with these values (null: the defaults), every document parsed. */
  static Manifests template(ObjectNode overrides, Path tmp) {
    var cmd = new Helm(dir()).template().withName(RELEASE).withNamespace(NAMESPACE)
        .withKubeVersion(KUBE_VERSION);
    if (overrides != null) {
      cmd = cmd.withValuesFile(write(overrides, tmp.resolve("values-" + System.nanoTime() + ".yaml")));
    }
    return Manifests.parse(cmd.call());
  }

  /** The annotation key hooks carry in {@link #templateWithHooks}. */
  static final String HOOK = "test.locus.io/hook";

  /**
   * Like {@link #template}, with the hooks too. helm-java's template leaves hook resources out (it
   * returns the release manifest only), so the chart is copied with its {@code helm.sh/hook*}
   * annotations renamed to {@code test.locus.io/hook*}: the same documents, rendered as ordinary
   * ones, whose hook annotations a test can still read.
   */
  static Manifests templateWithHooks(ObjectNode overrides, Path tmp) {
    Path chart = tmp.resolve("hooks-" + System.nanoTime()).resolve("locus");
    copy(dir(), chart);
    try (Stream<Path> files = Files.list(chart.resolve("templates"))) {
      for (Path f : files.toList()) {
        Files.writeString(f, Files.readString(f).replace("helm.sh/hook", HOOK));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var cmd = new Helm(chart).template().withName(RELEASE).withNamespace(NAMESPACE)
        .withKubeVersion(KUBE_VERSION);
    if (overrides != null) {
      cmd = cmd.withValuesFile(write(overrides, tmp.resolve("values-" + System.nanoTime() + ".yaml")));
    }
    return Manifests.parse(cmd.call());
  }

  /**
   * {@code helm lint --strict} of the chart with these values. helm-java's lint takes no values
   * file, so the chart is copied and its values.yaml replaced by the defaults merged with them
   * (what {@code helm lint -f} does).
   */
  static LintResult lint(ObjectNode overrides, Path tmp) {
    Path chart = dir();
    if (overrides != null) {
      chart = tmp.resolve("chart-" + System.nanoTime()).resolve("locus");
      copy(dir(), chart);
      write(merge(defaults(), overrides), chart.resolve("values.yaml"));
    }
    return new Helm(chart).lint().strict().call();
  }

  /** Deep merge as Helm merges values: maps key by key, anything else replaced. */
  static ObjectNode merge(ObjectNode base, ObjectNode over) {
    ObjectNode out = base.deepCopy();
    for (Map.Entry<String, JsonNode> e : over.properties()) {
      JsonNode old = out.get(e.getKey());
      if (old instanceof ObjectNode o && e.getValue() instanceof ObjectNode n) {
        out.set(e.getKey(), merge(o, n));
      } else {
        out.set(e.getKey(), e.getValue().deepCopy());
      }
    }
    return out;
  }

  static Path write(JsonNode values, Path file) {
    try {
      Files.createDirectories(file.getParent());
      YAML.writeValue(file.toFile(), values);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The rendered documents. */
  record Manifests(String text, List<JsonNode> docs) {
    static Manifests parse(String text) {
      List<JsonNode> docs = new ArrayList<>();
      try (var parser = new YAMLFactory().createParser(text)) {
        for (Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
          JsonNode d = it.next();
          if (d != null && !d.isNull() && !d.isMissingNode() && d.size() > 0) {
            docs.add(d);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("rendered manifests are not YAML:\n" + text, e);
      }
      return new Manifests(text, docs);
    }

    List<JsonNode> ofKind(String kind) {
      return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    JsonNode one(String kind) {
      List<JsonNode> all = ofKind(kind);
      if (all.size() != 1) {
        throw new AssertionError("expected one " + kind + ", found " + all.size() + " in:\n" + text);
      }
      return all.get(0);
    }

    JsonNode named(String kind, String name) {
      return ofKind(kind).stream().filter(d -> name.equals(d.at("/metadata/name").asText()))
          .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in:\n" + text));
    }

    List<String> kinds() {
      return docs.stream().map(d -> d.path("kind").asText()).toList();
    }
  }
}
