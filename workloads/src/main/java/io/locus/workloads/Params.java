package io.locus.workloads;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Typed, validated access to a generator's string parameters, for {@link Workloads}. */
final class Params {
  /** A declared parameter; {@code defaultValue} null means required. */
  record Spec(String name, String defaultValue, String doc) {
    @Override
    public String toString() {
      String d = defaultValue == null ? " (required)"
          : defaultValue.isEmpty() ? " (optional)" : "=" + defaultValue;
      return name + d + ": " + doc;
    }
  }

  private final String workload;
  private final Map<String, String> values;
  private final List<Spec> specs;
  final long seed;

  Params(String workload, Map<String, String> values, List<Spec> specs, long seed) {
    this.workload = workload;
    this.seed = seed;
    this.values = values == null ? Map.of() : values;
    this.specs = specs;
    for (String key : this.values.keySet()) {
      if (specs.stream().noneMatch(s -> s.name().equals(key))) {
        throw fail("unknown parameter '" + key + "'");
      }
    }
  }

  boolean has(String name) {
    return values.get(name) != null;
  }

  String string(String name) {
    String v = values.get(name);
    if (v == null) {
      v = spec(name).defaultValue();
      if (v == null) {
        throw fail("parameter '" + name + "' is required");
      }
    }
    return v.trim();
  }

  int integer(String name) {
    String v = string(name);
    try {
      return Integer.parseInt(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw fail("parameter '" + name + "' must be an integer, got '" + v + "'");
    }
  }

  long longValue(String name) {
    String v = string(name);
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw fail("parameter '" + name + "' must be an integer, got '" + v + "'");
    }
  }

  /** A size in bytes: a whole number, or a number and a unit as the agent's config takes them. */
  long bytes(String name) {
    String v = string(name);
    try {
      return io.locus.schemas.units.ByteSize.parse(v.replace("_", "")).bytes();
    } catch (IllegalArgumentException e) {
      throw fail("parameter '" + name + "': " + e.getMessage());
    }
  }

  double number(String name) {
    String v = string(name);
    try {
      double d = Double.parseDouble(v);
      if (Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw fail("parameter '" + name + "' must be a finite number, got '" + v + "'");
  }

  boolean bool(String name) {
    String v = string(name).toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    throw fail("parameter '" + name + "' must be true or false, got '" + v + "'");
  }

  /** One of the given choices, matched case-insensitively; returns the matching key. */
  <T> T choice(String name, Map<String, T> choices) {
    String v = string(name).toLowerCase(Locale.ROOT);
    T t = choices.get(v);
    if (t == null) {
      throw fail("parameter '" + name + "' must be one of " + choices.keySet() + ", got '" + v
          + "'");
    }
    return t;
  }

  IllegalArgumentException fail(String message) {
    return new Invalid(workload + ": " + message + ". Parameters of " + workload
        + (specs.isEmpty() ? ": none" : ": " + specs.stream().map(Spec::toString)
            .collect(Collectors.joining("; "))));
  }

  /** A parameter error whose message already lists the valid parameters. */
  static final class Invalid extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message);
    }
  }

  private Spec spec(String name) {
    return specs.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("undeclared parameter " + name));
  }
}
