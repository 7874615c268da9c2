package io.locus.agent.config;

import io.locus.schemas.units.ByteSize;
import io.locus.kafka.cli.DurationText;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Binds a YAML config (JSON is YAML too) to records with Jackson, strictly, and says what is wrong
 * as a {@link ConfigException} that names the key and the line:
 *
 * <ul>
 *   <li>an unknown key, and a key given twice, are errors (a typo must not fall back to a default,
 *       and the last of two values must not silently win);
 *   <li>types are not coerced: {@code slots: "3"}, {@code slots: 2.5} and {@code inherit-env:
 *       "true"} are refused;
 *   <li>sizes are {@link ByteSize}s, durations {@link DurationText}s; a {@code Path} is relative
 *       to the config's directory, and a {@code URI} without a scheme is a {@code file:} URI of such
 *       a path;
 *   <li>records check their own ranges and throw {@link InvalidSetting}.
 * </ul>
 * Keys are kebab-case forms of the record components ({@code maxArgs} is {@code max-args}).
 */
public final class StrictYaml {
  private static final String BASE = "locus.config.base";
  private static final YAMLMapper MAPPER = YAMLMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .propertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .addModule(new SimpleModule("locus-config")
          .addDeserializer(Duration.class, scalar(Duration.class, "a duration",
              (text, ctxt) -> DurationText.parse(text)))
          .addDeserializer(ByteSize.class, scalar(ByteSize.class, "a size",
              (text, ctxt) -> ByteSize.parse(text)))
          .addDeserializer(Path.class, scalar(Path.class, "a path",
              (text, ctxt) -> base(ctxt).resolve(text).normalize()))
          .addDeserializer(URI.class, scalar(URI.class, "a URI", StrictYaml::uri)))
      .build();

  private StrictYaml() {}

  /**
   * Reads {@code text} into {@code type}.
   *
   * @param base the directory relative paths are resolved against
   */
  public static <T> T read(String text, Class<T> type, Path base) {
    if (text.isBlank()) {
      throw new ConfigException(null, 0, "the config is empty: it must be a mapping of keys to"
          + " values");
    }
    try {
      return MAPPER.readerFor(type).withAttribute(BASE, base.toAbsolutePath()).readValue(text);
    } catch (JacksonException e) {
      throw translate(e, KeyLines.of(text)).withCause(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- what went wrong, in the file's words ----------------------------------------------------

  private static ConfigException translate(JacksonException e, KeyLines lines) {
    String at = e instanceof JsonMappingException m ? dotted(m.getPath()) : "";
    StreamReadException parse = find(e, StreamReadException.class);
    if (parse != null && parse.getOriginalMessage().startsWith("Duplicate field")) {
      JsonParser p = parse.getProcessor();
      String key = p != null ? dotted(p.getParsingContext()) : at;
      int line = parse.getLocation() == null ? 0 : parse.getLocation().getLineNr();
      return new ConfigException(key, line, "given twice (first at line " + lines.lineOf(key)
          + "); a key may appear once");
    }
    InvalidSetting bad = find(e, InvalidSetting.class);
    if (bad != null) {
      InvalidSetting full = at.isEmpty() ? bad : bad.under(at);
      return lines.error(full.key(), full.problem());
    }
    if (e instanceof UnrecognizedPropertyException u) {
      TreeSet<String> known = new TreeSet<>();
      u.getKnownPropertyIds().forEach(k -> known.add(String.valueOf(k)));
      return lines.error(at, "unknown key [" + at + "]; known here: " + known);
    }
    RuntimeException refused = find(e, IllegalArgumentException.class);
    if (refused == null) {
      refused = find(e, UncheckedIOException.class);
    }
    if (refused != null) {
      return lines.error(at, refused.getMessage());
    }
    if (e instanceof MismatchedInputException mi) {
      if (at.isEmpty()) {
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        return new ConfigException(null, line, e.getOriginalMessage().startsWith("Trailing token")
            ? "a second YAML document (---): the config is one mapping of keys to values"
            : "the config must be a mapping of keys to values");
      }
      String found = lines.valueOf(at);
      return lines.error(at, "must be " + expected(mi.getTargetType())
          + (found == null ? "" : ", not " + found));
    }
    if (e instanceof JsonMappingException) {
      return lines.error(at, e.getOriginalMessage());
    }
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    // SnakeYAML's message goes on with a picture of the line; the line number says enough.
    return new ConfigException(null, line,
        "not valid YAML: " + e.getOriginalMessage().lines().findFirst().orElse("").strip());
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "something else";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "a whole number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a single value";
    }
    if (type.isEnum()) {
      return "one of " + Arrays.stream(type.getEnumConstants())
          .map(c -> c.toString().toLowerCase(Locale.ROOT)).toList();
    }
    if (Collection.class.isAssignableFrom(type)) {
      return "a list, e.g. [a, b]";
    }
    if (Map.class.isAssignableFrom(type)) {
      return "a mapping of names to values";
    }
    return "a mapping of keys to values";
  }

  private static <X extends Throwable> X find(Throwable t, Class<X> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  private static String dotted(List<JsonMappingException.Reference> path) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : path) {
      if (r.getFieldName() != null) {
        b.append(b.length() > 0 ? "." : "").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  private static String dotted(JsonStreamContext ctx) {
    String pointer = ctx.pathAsPointer().toString();
    return pointer.isEmpty() ? "" : pointer.substring(1).replace('/', '.');
  }

  // ---- scalar types --------------------------------------------------------------------------

  private interface Parse<T> {
    T parse(String text, DeserializationContext ctxt);
  }

  /** A type written as one scalar; anything else (a list, a mapping) is refused as not one. */
  private static <T> StdScalarDeserializer<T> scalar(Class<T> type, String what, Parse<T> parse) {
    return new StdScalarDeserializer<>(type) {
      @Override
      public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null || !t.isScalarValue() || t == JsonToken.VALUE_NULL) {
          throw new IllegalArgumentException("must be " + what + ", not "
              + (t == JsonToken.START_ARRAY ? "a list" : "a mapping"));
        }
        return parse.parse(p.getText(), ctxt);
      }
    };
  }

  private static Path base(DeserializationContext ctxt) {
    Object b = ctxt.getAttribute(BASE);
    return b instanceof Path p ? p : Path.of("").toAbsolutePath();
  }

  /** A URI; a bare path means a file: URI (relative to the config's directory). */
  private static URI uri(String text, DeserializationContext ctxt) {
    if (text.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      try {
        return new URI(text);
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException("not a URI: '" + text + "': " + e.getReason());
      }
    }
    return base(ctxt).resolve(text).toAbsolutePath().normalize().toUri();
  }
}
