package io.locus.agent.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each key of a YAML text stands, and what its value looks like, so an error can name the
 * line even when the value was refused after parsing (a range check in a record's constructor).
 * Keys are dotted paths ({@code cache.quota}, {@code storage.allowed-locations[1]}); the first
 * occurrence of a key counts.
 */
public final class KeyLines {
  private final Map<String, Integer> lines = new HashMap<>();
  private final Map<String, String> values = new HashMap<>();

  private KeyLines() {}

  /** Reads {@code text}; what cannot be read (a syntax error) is simply not there. */
  public static KeyLines of(String text) {
    KeyLines k = new KeyLines();
    try (JsonParser p = YAMLFactory.builder().build().createParser(text)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t == JsonToken.FIELD_NAME) {
          k.lines.putIfAbsent(path(p.getParsingContext()), p.currentTokenLocation().getLineNr());
          continue;
        }
        String key = path(t.isStructStart() ? p.getParsingContext().getParent()
            : p.getParsingContext());
        if (!key.isEmpty() && !t.isStructEnd()) {
          k.lines.putIfAbsent(key, p.currentTokenLocation().getLineNr());
          k.values.putIfAbsent(key, describe(p, t));
        }
      }
    } catch (IOException | RuntimeException e) {
      // A syntax error: the reader reports it with its own line.
    }
    return k;
  }

  private static String describe(JsonParser p, JsonToken t) throws IOException {
    return switch (t) {
      case START_ARRAY -> "a list";
      case START_OBJECT -> "a mapping";
      case VALUE_STRING -> "'" + p.getText() + "'";
      default -> p.getText();
    };
  }

  /** The dotted path of the current position: a.b[2].c. */
  private static String path(JsonStreamContext ctx) {
    Deque<String> parts = new ArrayDeque<>();
    for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        parts.push("[" + Math.max(0, c.getCurrentIndex()) + "]");
      } else if (c.getCurrentName() != null) {
        parts.push(c.getCurrentName());
      }
    }
    StringBuilder b = new StringBuilder();
    for (String s : parts) {
      if (b.length() > 0 && !s.startsWith("[")) {
        b.append('.');
      }
      b.append(s);
    }
    return b.toString();
  }

  /** The line of {@code key}, or of its nearest enclosing key that is in the text; 0: none. */
  public int lineOf(String key) {
    for (String k = key; k != null && !k.isEmpty(); k = parent(k)) {
      Integer l = lines.get(k);
      if (l != null) {
        return l;
      }
    }
    return 0;
  }

  /** How the value of {@code key} looks in the text ("'12Mb'", "2.5", "a list"), or null. */
  public String valueOf(String key) {
    return values.get(key);
  }

  /** The error {@code problem} at {@code key}, with its line. */
  public ConfigException error(String key, String problem) {
    return new ConfigException(key, lineOf(key), problem);
  }

  private static String parent(String key) {
    int dot = Math.max(key.lastIndexOf('.'), key.lastIndexOf('['));
    return dot < 0 ? null : key.substring(0, dot);
  }
}
