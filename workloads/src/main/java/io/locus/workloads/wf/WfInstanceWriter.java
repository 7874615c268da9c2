package io.locus.workloads.wf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link WfWorkflow} as a WfCommons instance of a given WfFormat version, in that
 * version's own shape (see {@link WfInstanceReader} for the shapes): 1.0–1.1 {@code
 * workflow.jobs} with per-job {@code files[{name, size, link}]}; 1.2 adds {@code id}, {@code
 * category}, {@code command}; 1.3 {@code workflow.tasks}; 1.4 {@code runtimeInSeconds}, {@code
 * sizeInBytes}, {@code children}, {@code makespanInSeconds}; 1.5 {@code specification} and {@code
 * execution}; 1.6 adds the {@code metrics} objects. The dates use a different ISO 8601 style per
 * version (basic, extended, with and without zone and fractions), as published instances do, so a
 * test reading every version reads every style. Output is deterministic.
 */
public final class WfInstanceWriter {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  /** createdAt and executedAt per version. */
  private static final Map<String, String[]> DATES = Map.of(
      "1.0", new String[] {"2020-12-30T02:24:13.540715", "20201120T093416-0800"},
      "1.1", new String[] {"2021-03-01T10:00:00Z", "20210301T100000Z"},
      "1.2", new String[] {"2021-03-01T10:00:00+01:00", "20210301T100000.250+0100"},
      "1.3", new String[] {"20210401T080000Z", "2021-04-01T08:00:00.5-05:00"},
      "1.4", new String[] {"2022-01-15T09:30:00-08:00", "2022-01-15T09:31:02Z"},
      "1.5", new String[] {"2023-06-01T12:00:00.123456+02:00", "2023-06-01T12:05:00+02:00"},
      "1.6", new String[] {"2026-08-04T15:19:28-08:00", "2026-08-04T15:20:00-08:00"});

  private WfInstanceWriter() {}

  /** Writes {@code wf} to {@code path} as WfFormat {@code version} (one of VERSIONS). */
  public static void write(WfWorkflow wf, String version, Path path) throws IOException {
    Files.writeString(path, JSON.writeValueAsString(toJson(wf, version)) + "\n");
  }

  /** The instance as a JSON tree. */
  public static ObjectNode toJson(WfWorkflow wf, String version) {
    if (!WfInstanceReader.VERSIONS.contains(version)) {
      throw new IllegalArgumentException("unknown WfFormat version '" + version + "'; known: "
          + WfInstanceReader.VERSIONS);
    }
    WfJobs.order(wf.tasks()); // refuses a cycle or an unknown parent before writing anything
    ObjectNode root = JSON.createObjectNode();
    root.put("name", wf.name());
    if (!wf.description().isEmpty()) {
      root.put("description", wf.description());
    }
    root.put("createdAt", DATES.get(version)[0]);
    root.put("schemaVersion", version);
    boolean current = version.compareTo("1.5") >= 0;
    ObjectNode system = root.putObject(current ? "runtimeSystem" : "wms");
    system.put("name", "locus-synthetic");
    system.put("version", "1.0");
    ObjectNode author = root.putObject("author");
    author.put("name", "Locus");
    author.put("email", "locus@example.org");
    ObjectNode workflow = root.putObject("workflow");
    if (current) {
      current(wf, version, workflow);
    } else {
      legacy(wf, version, workflow);
    }
    return root;
  }

  private static void legacy(WfWorkflow wf, String version, ObjectNode workflow) {
    boolean v14 = version.equals("1.4");
    boolean v12 = version.compareTo("1.2") >= 0;
    workflow.put(v14 ? "makespanInSeconds" : "makespan", criticalPath(wf));
    workflow.put("executedAt", DATES.get(version)[1]);
    ArrayNode tasks = workflow.putArray(version.compareTo("1.3") >= 0 ? "tasks" : "jobs");
    for (WfTask t : wf.tasks()) {
      ObjectNode o = tasks.addObject();
      o.put("name", t.id());
      if (v12) {
        o.put("id", t.id());
        if (t.category() != null) {
          o.put("category", t.category());
        }
      }
      o.put("type", t.type() == null ? "compute" : t.type());
      if (v12) {
        ObjectNode command = o.putObject("command");
        if (t.category() != null) {
          command.put("program", t.category());
        }
        command.putArray("arguments");
      } else {
        o.putArray("arguments");
      }
      o.put(v14 ? "runtimeInSeconds" : "runtime", t.runtimeSeconds());
      strings(o.putArray("parents"), t.parents());
      if (v14) {
        strings(o.putArray("children"), wf.children(t.id()));
      }
      ArrayNode files = o.putArray("files");
      for (String f : t.inputs()) {
        file(files, f, wf.fileSizes().get(f), "input", v14);
      }
      for (String f : t.outputs()) {
        file(files, f, wf.fileSizes().get(f), "output", v14);
      }
      o.put("cores", 1);
    }
  }

  private static void file(ArrayNode files, String name, long size, String link, boolean v14) {
    ObjectNode f = files.addObject();
    f.put("name", name);
    f.put(v14 ? "sizeInBytes" : "size", size);
    f.put("link", link);
  }

  private static void current(WfWorkflow wf, String version, ObjectNode workflow) {
    boolean v16 = version.equals("1.6");
    ObjectNode spec = workflow.putObject("specification");
    ArrayNode tasks = spec.putArray("tasks");
    for (WfTask t : wf.tasks()) {
      ObjectNode o = tasks.addObject();
      o.put("name", t.name() == null ? t.id() : t.name());
      o.put("id", t.id());
      strings(o.putArray("parents"), t.parents());
      strings(o.putArray("children"), wf.children(t.id()));
      strings(o.putArray("inputFiles"), t.inputs());
      strings(o.putArray("outputFiles"), t.outputs());
    }
    ArrayNode files = spec.putArray("files");
    long sum = 0;
    for (Map.Entry<String, Long> f : wf.fileSizes().entrySet()) {
      ObjectNode o = files.addObject();
      o.put("id", f.getKey());
      o.put("sizeInBytes", f.getValue());
      sum += f.getValue();
    }
    if (v16) {
      List<Integer> widths = levelWidths(wf);
      ObjectNode m = spec.putObject("metrics");
      m.put("numberOfTasks", wf.tasks().size());
      m.put("numberOfFiles", wf.fileSizes().size());
      m.put("sumOfFileSizesInBytes", sum);
      m.put("numberOfLevels", widths.size());
      m.put("minimumWidth", widths.stream().mapToInt(Integer::intValue).min().orElse(0));
      m.put("maximumWidth", widths.stream().mapToInt(Integer::intValue).max().orElse(0));
    }
    ObjectNode execution = workflow.putObject("execution");
    execution.put("makespanInSeconds", criticalPath(wf));
    execution.put("executedAt", DATES.get(version)[1]);
    ArrayNode runs = execution.putArray("tasks");
    long read = 0;
    long written = 0;
    for (WfTask t : wf.tasks()) {
      ObjectNode o = runs.addObject();
      o.put("id", t.id());
      o.put("runtimeInSeconds", t.runtimeSeconds());
      if (v16) {
        o.put("executedAt", DATES.get(version)[1]);
      }
      ObjectNode command = o.putObject("command");
      if (t.category() != null) {
        command.put("program", t.category());
      }
      command.putArray("arguments");
      o.put("coreCount", 1);
      long r = t.inputs().stream().mapToLong(f -> wf.fileSizes().get(f)).sum();
      long w = t.outputs().stream().mapToLong(f -> wf.fileSizes().get(f)).sum();
      o.put("readBytes", r);
      o.put("writtenBytes", w);
      o.putArray("machines").add("node01");
      read += r;
      written += w;
    }
    ObjectNode machine = execution.putArray("machines").addObject();
    machine.put("system", "linux");
    machine.put("architecture", "x86_64");
    machine.put("nodeName", "node01");
    machine.putObject("cpu").put("coreCount", 8);
    if (v16) {
      ObjectNode m = execution.putObject("metrics");
      m.put("sumTaskRuntimesInSeconds", wf.totalRuntimeSeconds());
      m.put("totalNumBytesRead", read);
      m.put("totalNumBytesWritten", written);
    }
  }

  private static void strings(ArrayNode a, List<String> values) {
    values.forEach(a::add);
  }

  /** The longest runtime path through the DAG: the makespan on unlimited machines. */
  static double criticalPath(WfWorkflow wf) {
    Map<String, WfTask> byId = new HashMap<>();
    wf.tasks().forEach(t -> byId.put(t.id(), t));
    Map<String, Double> finish = new HashMap<>();
    double max = 0;
    for (String id : WfJobs.order(wf.tasks())) {
      WfTask t = byId.get(id);
      double start = 0;
      for (String p : t.parents()) {
        start = Math.max(start, finish.get(p));
      }
      finish.put(id, start + t.runtimeSeconds());
      max = Math.max(max, start + t.runtimeSeconds());
    }
    return max;
  }

  /** Tasks per DAG level (level 0: no parents; else 1 + the deepest parent), as 1.6 defines. */
  static List<Integer> levelWidths(WfWorkflow wf) {
    Map<String, WfTask> byId = new HashMap<>();
    wf.tasks().forEach(t -> byId.put(t.id(), t));
    Map<String, Integer> level = new HashMap<>();
    List<Integer> widths = new ArrayList<>();
    for (String id : WfJobs.order(wf.tasks())) {
      int l = 0;
      for (String p : byId.get(id).parents()) {
        l = Math.max(l, level.get(p) + 1);
      }
      level.put(id, l);
      while (widths.size() <= l) {
        widths.add(0);
      }
      widths.set(l, widths.get(l) + 1);
    }
    return widths;
  }
}
