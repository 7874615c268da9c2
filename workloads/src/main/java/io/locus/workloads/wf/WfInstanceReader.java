package io.locus.workloads.wf;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.schemas.limits.FileIds;
import io.locus.workloads.TraceFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Reads a WfCommons workflow instance (WfFormat JSON) of any published schema version into a
 * {@link WfWorkflow}, chosen by the instance's {@code schemaVersion}, and checks it: every
 * reference resolves, parents and children agree, the graph is acyclic. {@link WfJobs} turns the
 * result into trace jobs.
 *
 * <p>What was checked, and where (WfFormat repository {@code wfcommons/WfFormat}: the schema file
 * {@code wfcommons-schema.json} and README of versions 1.1, 1.4, 1.5 and 1.6, and the official
 * migration tool {@code tools/wfcommons-migrate-instance.py}, which spells out every change from
 * 1.0 to 1.6; {@code wfcommons/WfCommons}' {@code wfinstances/instance.py} of the 1.3 era; the
 * WRENCH 1.0 schema README):
 * <ul>
 *   <li>1.0, 1.1: {@code workflow.jobs[]} {name, type, arguments, parents (names), files[{name,
 *       size, link: input|output}], runtime (s), ...}; {@code workflow.makespan}, {@code
 *       workflow.executedAt}. The 1.0/1.1 READMEs say {@code size} is in KB, but the migration tool
 *       copies {@code size} to 1.4's {@code sizeInBytes} unchanged (it converts only the task
 *       counters bytesRead/bytesWritten/memory from KB), and the published instances hold bytes:
 *       sizes are read as bytes.
 *   <li>1.2: jobs gain {@code id}, {@code category} and {@code command {program, arguments}}.
 *   <li>1.3: {@code workflow.jobs} is renamed {@code workflow.tasks}; same task shape.
 *   <li>1.4: {@code runtimeInSeconds}, {@code files[].sizeInBytes}, {@code makespanInSeconds},
 *       {@code memoryInBytes}; tasks may list {@code children} besides {@code parents}; references
 *       are still task names. Published 1.4 instances made by older tools sometimes still use
 *       {@code runtime}/{@code size}/{@code makespan} (the migration tool's clean-up step handles
 *       both), so 1.4 accepts the old names when the new ones are absent.
 *   <li>1.5: {@code workflow.specification {tasks[{name, id, parents, children, inputFiles,
 *       outputFiles}], files[{id, sizeInBytes}]}} with tasks and files referenced by id, and
 *       {@code workflow.execution {makespanInSeconds, executedAt, tasks[{id, runtimeInSeconds,
 *       command, coreCount, ...}], machines}}; {@code wms} became {@code runtimeSystem}.
 *   <li>1.6: as 1.5, plus optional {@code metrics} objects under specification and execution and
 *       an optional task {@code executedAt}; metrics are ignored.
 * </ul>
 *
 * <p>Like WfFormat itself, unknown properties are allowed and ignored; the properties Locus uses are
 * checked strictly. A problem is a {@link TraceFormatException} naming the file and the JSON path.
 * Published instances carry quirks in fields scheduling never reads ({@code createdAt} and {@code
 * executedAt} dates such as {@code 03-23-21T06:04:36Z}, a makespan of the wrong type, a
 * non-string description): such a field is a {@linkplain WfWorkflow#warnings() warning} naming
 * its path, never a refusal of the whole instance (issue 22). What scheduling uses (task ids,
 * parents and children, files and sizes, runtimes) stays strict.
 * Rules beyond the schema: a file a task both reads and writes counts as written (an output); in
 * 1.0–1.4 a file's size is the one of its first mention; in 1.5+, when an {@code execution}
 * section exists it must give every task a runtime, and without one every runtime is 0.
 */
public final class WfInstanceReader {
  /** Every published WfFormat version this reader understands. */
  public static final List<String> VERSIONS = List.of("1.0", "1.1", "1.2", "1.3", "1.4", "1.5",
      "1.6");

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final String source;
  private String tasksPath;
  /** Problems in fields scheduling does not read: reported, not refused. */
  private final List<String> warnings = new ArrayList<>();

  private WfInstanceReader(String source) {
    this.source = source;
  }

  /** Reads an instance file ({@code .json}, or gzip-compressed {@code .json.gz}). */
  public static WfWorkflow read(Path path) throws IOException {
    JsonNode root;
    try (InputStream raw = Files.newInputStream(path);
         InputStream in = path.getFileName().toString().endsWith(".gz")
             ? new GZIPInputStream(raw, 1 << 16) : raw) {
      root = JSON.readTree(in);
    } catch (JsonProcessingException e) {
      throw TraceFormatException.at(path.toString(), null,
          TraceFormatException.jsonProblem(e, false));
    }
    return parse(path.toString(), root);
  }

  /** Reads an instance already parsed as a JSON tree; {@code source} names it in errors. */
  public static WfWorkflow parse(String source, JsonNode root) {
    return new WfInstanceReader(source).instance(root);
  }

  // ------------------------------------------------------------------ the versions

  private WfWorkflow instance(JsonNode root) {
    if (root == null || !root.isObject()) {
      throw error("$", "a WfCommons instance is a JSON object, got "
          + (root == null ? "nothing" : kind(root)));
    }
    JsonNode v = root.get("schemaVersion");
    if (v == null || v.isNull()) {
      throw error("$", "missing required field 'schemaVersion'; known WfFormat versions: "
          + String.join(", ", VERSIONS));
    }
    if (!v.isTextual()) {
      throw error("$.schemaVersion", "must be a string such as \"1.5\", got " + v);
    }
    String version = v.asText();
    if (!VERSIONS.contains(version)) {
      throw error("$.schemaVersion", "unknown WfFormat version '" + version
          + "'; known versions: " + String.join(", ", VERSIONS));
    }
    String name = str(root, "name", "$", true);
    String description = lenient("$.description", () -> str(root, "description", "$", false));
    date(root, "createdAt", "$", false);
    JsonNode workflow = object(root, "workflow", "$", true);
    Parsed p = version.compareTo("1.5") < 0 ? legacy(workflow, version) : current(workflow);
    List<WfTask> tasks = p.resolve();
    return new WfWorkflow(name, description, tasks, p.sizes, warnings);
  }

  /** 1.0–1.4: tasks (or jobs) carry their files; references are task names. */
  private Parsed legacy(JsonNode workflow, String version) {
    boolean v14 = version.equals("1.4");
    String list = version.compareTo("1.3") < 0 ? "jobs" : "tasks";
    date(workflow, "executedAt", "$.workflow", true);
    String makespan = v14 && workflow.has("makespanInSeconds") ? "makespanInSeconds" : "makespan";
    lenient("$.workflow." + makespan,
        () -> nonNegative(workflow, makespan, "$.workflow", false, true));
    tasksPath = "$.workflow." + list;
    JsonNode tasks = array(workflow, list, "$.workflow", true);
    Parsed p = new Parsed();
    for (int i = 0; i < tasks.size(); i++) {
      String tp = tasksPath + "[" + i + "]";
      JsonNode t = element(tasks.get(i), tp);
      String id = str(t, "name", tp, true);
      p.addTask(id, tp + ".name");
      String category = str(t, "category", tp, false);
      JsonNode command = object(t, "command", tp, false);
      if (category == null && command != null) {
        category = str(command, "program", tp + ".command", false);
      }
      String runtimeKey = v14 && t.has("runtimeInSeconds") ? "runtimeInSeconds"
          : v14 && t.has("runtime") ? "runtime" : v14 ? "runtimeInSeconds" : "runtime";
      double runtime = nonNegative(t, runtimeKey, tp, true, false);
      p.refs(t, "parents", tp, true);
      p.refs(t, "children", tp, false);
      List<String> in = new ArrayList<>();
      List<String> out = new ArrayList<>();
      JsonNode files = array(t, "files", tp, false);
      for (int k = 0; files != null && k < files.size(); k++) {
        String fp = tp + ".files[" + k + "]";
        JsonNode f = element(files.get(k), fp);
        String file = fileId(str(f, "name", fp, true), fp + ".name");
        String sizeKey = v14 && f.has("sizeInBytes") ? "sizeInBytes"
            : v14 && f.has("size") ? "size" : v14 ? "sizeInBytes" : "size";
        long size = bytes(f, sizeKey, fp);
        String link = str(f, "link", fp, true);
        p.sizes.putIfAbsent(file, size);
        switch (link.toLowerCase(Locale.ROOT)) {
          case "input" -> addOnce(in, file);
          case "output" -> addOnce(out, file);
          default -> throw error(fp + ".link", "must be \"input\" or \"output\", got \"" + link
              + "\"");
        }
      }
      p.bodies.add(new Body(id, null, category, str(t, "type", tp, false), runtime, in, out));
    }
    return p;
  }

  /** 1.5 and 1.6: a specification (structure, files by id) and an execution (runtimes). */
  private Parsed current(JsonNode workflow) {
    String sp = "$.workflow.specification";
    JsonNode spec = object(workflow, "specification", "$.workflow", true);
    Parsed p = new Parsed();
    Map<String, String> fileAt = new HashMap<>();
    JsonNode files = array(spec, "files", sp, false);
    for (int k = 0; files != null && k < files.size(); k++) {
      String fp = sp + ".files[" + k + "]";
      JsonNode f = element(files.get(k), fp);
      String id = fileId(str(f, "id", fp, true), fp + ".id");
      if (fileAt.putIfAbsent(id, fp) != null) {
        throw error(fp + ".id", "duplicate file id '" + id + "' (also " + fileAt.get(id) + ")");
      }
      p.sizes.put(id, bytes(f, "sizeInBytes", fp));
    }
    tasksPath = sp + ".tasks";
    JsonNode tasks = array(spec, "tasks", sp, true);
    for (int i = 0; i < tasks.size(); i++) {
      String tp = tasksPath + "[" + i + "]";
      JsonNode t = element(tasks.get(i), tp);
      String id = str(t, "id", tp, true);
      p.addTask(id, tp + ".id");
      p.refs(t, "parents", tp, true);
      p.refs(t, "children", tp, false);
      List<String> in = fileRefs(t, "inputFiles", tp, fileAt);
      List<String> out = fileRefs(t, "outputFiles", tp, fileAt);
      p.bodies.add(new Body(id, str(t, "name", tp, false), null, null, 0, in, out));
    }
    JsonNode execution = object(workflow, "execution", "$.workflow", false);
    if (execution != null) {
      execution(execution, p);
    }
    return p;
  }

  private void execution(JsonNode execution, Parsed p) {
    String ep = "$.workflow.execution";
    date(execution, "executedAt", ep, true);
    lenient(ep + ".makespanInSeconds",
        () -> nonNegative(execution, "makespanInSeconds", ep, false, true));
    JsonNode tasks = array(execution, "tasks", ep, true);
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < tasks.size(); i++) {
      String tp = ep + ".tasks[" + i + "]";
      JsonNode t = element(tasks.get(i), tp);
      String id = str(t, "id", tp, true);
      Integer index = p.index.get(id);
      if (index == null) {
        throw error(tp + ".id", "task '" + id + "' is not in " + tasksPath);
      }
      if (seen.putIfAbsent(id, tp) != null) {
        throw error(tp + ".id", "duplicate execution entry for task '" + id + "' (also "
            + seen.get(id) + ")");
      }
      double runtime = nonNegative(t, "runtimeInSeconds", tp, true, false);
      date(t, "executedAt", tp, false);
      JsonNode command = object(t, "command", tp, false);
      String program = command == null ? null : str(command, "program", tp + ".command", false);
      Body b = p.bodies.get(index);
      p.bodies.set(index, new Body(b.id, b.name, program, null, runtime, b.in, b.out));
    }
    for (Body b : p.bodies) {
      if (!seen.containsKey(b.id)) {
        throw error(ep + ".tasks", "no entry (runtime) for task '" + b.id + "' of " + tasksPath);
      }
    }
  }

  private List<String> fileRefs(JsonNode t, String field, String tp, Map<String, String> fileAt) {
    List<String> out = new ArrayList<>();
    JsonNode a = array(t, field, tp, false);
    for (int k = 0; a != null && k < a.size(); k++) {
      String rp = tp + "." + field + "[" + k + "]";
      String f = string(a.get(k), rp);
      if (!fileAt.containsKey(f)) {
        throw error(rp, "file '" + f + "' is not in $.workflow.specification.files");
      }
      addOnce(out, f);
    }
    return out;
  }

  // ------------------------------------------------------------------ the graph

  private record Body(String id, String name, String category, String type, double runtime,
      List<String> in, List<String> out) {}

  /** A reference from task {@code from} to task {@code to} written at {@code path}. */
  private record Ref(int from, String to, String path) {}

  /** Tasks as read, before their references are resolved. */
  private final class Parsed {
    final List<Body> bodies = new ArrayList<>();
    final Map<String, Integer> index = new HashMap<>();
    final Map<String, String> declaredAt = new HashMap<>();
    final Map<String, Long> sizes = new LinkedHashMap<>();
    final List<Ref> parentRefs = new ArrayList<>();
    final List<Ref> childRefs = new ArrayList<>();
    boolean anyParents;
    boolean anyChildren;

    void addTask(String id, String path) {
      String before = declaredAt.putIfAbsent(id, path);
      if (before != null) {
        throw error(path, "duplicate task '" + id + "' (also " + before + ")");
      }
      index.put(id, index.size());
    }

    void refs(JsonNode t, String field, String tp, boolean parents) {
      JsonNode a = array(t, field, tp, false);
      if (a == null) {
        return;
      }
      if (parents) {
        anyParents = true;
      } else {
        anyChildren = true;
      }
      int from = index.size() - 1;
      for (int k = 0; k < a.size(); k++) {
        String rp = tp + "." + field + "[" + k + "]";
        (parents ? parentRefs : childRefs).add(new Ref(from, string(a.get(k), rp), rp));
      }
    }

    List<WfTask> resolve() {
      List<Set<String>> parents = new ArrayList<>();
      for (int i = 0; i < bodies.size(); i++) {
        parents.add(new LinkedHashSet<>());
      }
      Set<String> fromParents = new java.util.HashSet<>();
      for (Ref r : parentRefs) {
        known(r, "parent");
        parents.get(r.from).add(r.to);
        fromParents.add(r.to + "\n" + bodies.get(r.from).id);
      }
      Set<String> fromChildren = new java.util.HashSet<>();
      for (Ref r : childRefs) {
        known(r, "child");
        String parent = bodies.get(r.from).id;
        fromChildren.add(parent + "\n" + r.to);
        if (anyParents && !fromParents.contains(parent + "\n" + r.to)) {
          throw error(r.path, "task '" + parent + "' lists child '" + r.to + "' but '" + r.to
              + "' does not list '" + parent + "' as a parent");
        }
        parents.get(index.get(r.to)).add(parent);
      }
      if (anyChildren) {
        for (Ref r : parentRefs) {
          String child = bodies.get(r.from).id;
          if (!fromChildren.contains(r.to + "\n" + child)) {
            throw error(r.path, "task '" + child + "' lists parent '" + r.to + "' but '" + r.to
                + "' does not list '" + child + "' as a child");
          }
        }
      }
      List<WfTask> tasks = new ArrayList<>(bodies.size());
      for (int i = 0; i < bodies.size(); i++) {
        Body b = bodies.get(i);
        List<String> in = new ArrayList<>(b.in);
        in.removeAll(b.out); // written by the task itself: not something it fetches
        tasks.add(new WfTask(b.id, b.name, b.category, b.type, b.runtime,
            new ArrayList<>(parents.get(i)), in, b.out));
      }
      List<String> cycle = WfJobs.cycle(tasks);
      if (!cycle.isEmpty()) {
        throw error(tasksPath, "the tasks form a cycle: " + String.join(" -> ", cycle));
      }
      return tasks;
    }

    private void known(Ref r, String what) {
      if (!index.containsKey(r.to)) {
        throw error(r.path, "unknown " + what + " task '" + r.to + "' (not in " + tasksPath + ")");
      }
    }
  }

  private static void addOnce(List<String> list, String value) {
    if (!list.contains(value)) {
      list.add(value);
    }
  }

  // ------------------------------------------------------------------ typed access with paths

  private JsonNode element(JsonNode n, String path) {
    if (!n.isObject()) {
      throw error(path, "must be an object, got " + kind(n));
    }
    return n;
  }

  private JsonNode object(JsonNode n, String field, String path, boolean required) {
    JsonNode v = present(n, field, path, required);
    if (v != null && !v.isObject()) {
      throw error(path + "." + field, "must be an object, got " + kind(v));
    }
    return v;
  }

  private JsonNode array(JsonNode n, String field, String path, boolean required) {
    JsonNode v = present(n, field, path, required);
    if (v != null && !v.isArray()) {
      throw error(path + "." + field, "must be an array, got " + kind(v));
    }
    return v;
  }

  private String str(JsonNode n, String field, String path, boolean required) {
    JsonNode v = present(n, field, path, required);
    return v == null ? null : string(v, path + "." + field);
  }

  private String string(JsonNode v, String path) {
    if (!v.isTextual() || v.asText().isEmpty()) {
      throw error(path, "must be a non-empty string, got " + kind(v));
    }
    return v.asText();
  }

  /** A number ≥ 0; {@code textOk}: a numeric string is accepted too (makespans vary in type). */
  private double nonNegative(JsonNode n, String field, String path, boolean required,
      boolean textOk) {
    JsonNode v = present(n, field, path, required);
    if (v == null) {
      return 0;
    }
    double d;
    if (v.isNumber()) {
      d = v.asDouble();
    } else if (textOk && v.isTextual()) {
      try {
        d = Double.parseDouble(v.asText().trim());
      } catch (NumberFormatException e) {
        throw error(path + "." + field, "must be a number, got " + kind(v));
      }
    } else {
      throw error(path + "." + field, "must be a number, got " + kind(v));
    }
    if (!(d >= 0) || Double.isInfinite(d)) {
      throw error(path + "." + field, "must be finite and >= 0, got " + v);
    }
    return d;
  }

  /** A size in bytes: an integer ≥ 0 (a number with no fraction, such as 1024.0, too). */
  private long bytes(JsonNode n, String field, String path) {
    JsonNode v = present(n, field, path, true);
    if (!v.isNumber()) {
      throw error(path + "." + field, "must be an integer number of bytes, got " + kind(v));
    }
    double d = v.asDouble();
    if (d < 0) {
      throw error(path + "." + field, "must be >= 0, got " + v);
    }
    if (!v.isIntegralNumber() && d != Math.rint(d) || !v.canConvertToLong()) {
      throw error(path + "." + field, "must be an integer number of bytes, got " + v);
    }
    return v.isIntegralNumber() ? v.asLong() : (long) d;
  }

  /**
   * A file's name, when the scheduler and the agents accept it as a file id ({@link FileIds}):
   * a replay would otherwise send jobs that are dead-lettered or refused by every agent. (The
   * replay prefixes it with the instance name; {@link WfJobs} checks the prefixed id.)
   */
  private String fileId(String id, String path) {
    String bad = FileIds.problem(id);
    if (bad != null) {
      throw error(path, "file id " + bad);
    }
    return id;
  }

  /**
   * A date scheduling never reads ({@code createdAt}, {@code executedAt}): checked, and a missing
   * or malformed one is a warning. (The schemas require {@code workflow.executedAt}; published
   * instances still write dates like {@code 03-23-21T06:04:36Z}.)
   */
  private void date(JsonNode n, String field, String path, boolean schemaRequires) {
    lenient(path + "." + field, () -> {
      String s = str(n, field, path, schemaRequires);
      if (s != null) {
        try {
          WfDates.parse(s);
        } catch (IllegalArgumentException e) {
          throw error(path + "." + field, e.getMessage());
        }
      }
      return s;
    });
  }

  /**
   * Reads a field scheduling does not use: its problem (a {@link TraceFormatException}) becomes
   * a warning and the field reads as absent (null).
   */
  private <T> T lenient(String path, java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (TraceFormatException e) {
      warnings.add(e.getMessage() + " (ignored: scheduling does not use " + path + ")");
      return null;
    }
  }

  private JsonNode present(JsonNode n, String field, String path, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw error(path, "missing required field '" + field + "'");
      }
      return null;
    }
    return v;
  }

  private static String kind(JsonNode v) {
    return v.isTextual() ? "\"" + v.asText() + "\"" : v.isContainerNode()
        ? v.getNodeType().toString().toLowerCase(Locale.ROOT) : v.toString();
  }

  private TraceFormatException error(String path, String message) {
    return TraceFormatException.at(source, path, message);
  }
}
