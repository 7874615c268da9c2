package io.locus.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.schemas.limits.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A pool's queue configuration file, YAML or JSON (JSON is YAML: one parser reads both):
 *
 * <pre>
 * pool: batch            # optional; --pool wins
 * queues:
 *   - name: eng
 *     weight: 2          # default 1
 *     guaranteedSlots: 8 # default 0
 *     limitSlots: 24     # default: no limit
 *   - name: ml
 *     parent: eng
 *     lendingLimitSlots: 2
 *     cacheGuaranteeBytes: 100000000000
 *     cacheLimitBytes: 500000000000
 *     maxWaitSeconds: 600
 * </pre>
 *
 * An unknown key, a fraction where a count belongs, or a missing {@code queues} list is bad input
 * naming the place; the tree's own rules are {@link QueueTree}'s, checked by {@link #problems}.
 * Public for {@code locus simulate --queue-config}, which reads the same files with the same checks.
 */
public final class QueueFile {
  /** One queue as written; boxed, so a field left out is told from a zero. */
  record Entry(
      @JsonProperty("name") String name,
      @JsonProperty("parent") String parent,
      @JsonProperty("weight") Double weight,
      @JsonProperty("guaranteedSlots") Integer guaranteedSlots,
      @JsonProperty("limitSlots") Integer limitSlots,
      @JsonProperty("lendingLimitSlots") Integer lendingLimitSlots,
      @JsonProperty("cacheGuaranteeBytes") Long cacheGuaranteeBytes,
      @JsonProperty("cacheLimitBytes") Long cacheLimitBytes,
      @JsonProperty("maxWaitSeconds") Double maxWaitSeconds) {
    QueueSpec spec() {
      return new QueueSpec(name, parent, weight == null ? 1.0 : weight,
          guaranteedSlots == null ? 0 : guaranteedSlots,
          limitSlots == null ? QueueSpec.UNLIMITED : limitSlots, lendingLimitSlots,
          cacheGuaranteeBytes, cacheLimitBytes, maxWaitSeconds);
    }
  }

  record Doc(@JsonProperty("pool") String pool, @JsonProperty("queues") List<Entry> queues) {}

  private static final ObjectMapper MAPPER = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .build();

  public final String pool;
  /** The specs in the file's order; an empty entry is a null spec ({@link #problems} says so). */
  public final List<QueueSpec> specs;

  private QueueFile(String pool, List<QueueSpec> specs) {
    this.pool = pool;
    this.specs = specs;
  }

  /**
   * Reads {@code file}.
   *
   * @throws IllegalArgumentException naming the file, and the line and column when it is malformed
   */
  public static QueueFile read(Path file) {
    Doc doc;
    try {
      doc = MAPPER.readValue(Files.readString(file), Doc.class);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(file + where(e) + ": " + what(e));
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read it: " + e.getMessage());
    }
    if (doc == null) {
      throw new IllegalArgumentException(file + " is empty: it needs a 'queues' list (an empty"
          + " list: the pool's default queue alone)");
    }
    if (doc.queues() == null) {
      throw new IllegalArgumentException(file + " has no 'queues' list (an empty list: the"
          + " pool's default queue alone)");
    }
    List<QueueSpec> specs = new ArrayList<>();
    for (Entry e : doc.queues()) {
      specs.add(e == null ? null : e.spec());
    }
    return new QueueFile(doc.pool(), specs);
  }

  /** ": line L, column C" (where the parser stopped) and the key's path when there is one. */
  private static String where(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String out = at == null ? "" : ": line " + at.getLineNr() + ", column " + at.getColumnNr();
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      StringBuilder path = new StringBuilder();
      for (JsonMappingException.Reference r : m.getPath()) {
        if (r.getFieldName() != null) {
          path.append(path.length() == 0 ? "" : ".").append(r.getFieldName());
        } else if (r.getIndex() >= 0) {
          path.append('[').append(r.getIndex()).append(']');
        }
      }
      out += " (at " + path + ")";
    }
    return out;
  }

  /** The problem in the file's terms (not the Java class Jackson maps it to). */
  private static String what(JsonProcessingException e) {
    if (e instanceof UnrecognizedPropertyException u) {
      List<String> known = new ArrayList<>();
      u.getKnownPropertyIds().forEach(k -> known.add(String.valueOf(k)));
      known.sort(null);
      return "unknown key '" + u.getPropertyName() + "' (known: " + String.join(", ", known)
          + ")";
    }
    String m = e.getOriginalMessage();
    return m.replaceAll(" \\(class io\\.locus[^)]*\\)", "");
  }

  /**
   * Every problem of the tree as the scheduler checks it (a pool of unknown size: only the
   * queues' own guarantees), and the record's bound on the number of queues.
   */
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    if (specs.size() > Limits.MAX_QUEUES) {
      out.add(specs.size() + " queues, more than the limit of " + Limits.MAX_QUEUES);
    }
    out.addAll(QueueTree.problems(specs, -1));
    return out;
  }
}
