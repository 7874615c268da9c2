package io.locus.core.state;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task with zero or several inputs: per distinct file its weight (the bytes of the task's
 * inputs with that id, so a file read twice counts twice, as in {@link PoolState#cached}), and
 * cached(t, e) of every node holding some of its bytes (c > 0), in small parallel arrays.
 */
final class MultiEntry extends IndexEntry {
  private static final NodeView[] NO_NODES = new NodeView[0];
  private static final long[] NO_LONGS = new long[0];

  final String[] files;
  final long[] weight;
  final int[] pos;
  final long bytes;
  NodeView[] nodes = NO_NODES;
  long[] cached = NO_LONGS;
  int size;
  /** maxCached(t). */
  long max;

  MultiEntry(Task task) {
    super(task);
    List<InputFile> in = task.inputs();
    Map<String, Long> w = new LinkedHashMap<>();
    long sum = 0;
    for (InputFile u : in) {
      w.merge(u.id(), u.bytes(), Long::sum);
      sum += u.bytes();
    }
    files = w.keySet().toArray(new String[0]);
    weight = new long[files.length];
    for (int i = 0; i < files.length; i++) {
      weight[i] = w.get(files[i]);
    }
    pos = new int[files.length];
    bytes = sum;
  }

  @Override
  int fileCount() {
    return files.length;
  }

  @Override
  String file(int i) {
    return files[i];
  }

  @Override
  void setPos(int i, int p) {
    pos[i] = p;
  }

  @Override
  int pos(int i) {
    return pos[i];
  }

  long weightOf(String file) {
    for (int i = 0; i < files.length; i++) {
      if (files[i].equals(file)) {
        return weight[i];
      }
    }
    throw new IllegalStateException("task " + task.taskId() + " does not read " + file);
  }

  int find(NodeView n) {
    for (int i = 0; i < size; i++) {
      if (nodes[i] == n) {
        return i;
      }
    }
    return -1;
  }

  void append(NodeView n, long c) {
    if (size == nodes.length) {
      int cap = Math.max(4, size * 2);
      nodes = Arrays.copyOf(nodes, cap);
      cached = Arrays.copyOf(cached, cap);
    }
    nodes[size] = n;
    cached[size++] = c;
  }

  void removeAt(int i) {
    size--;
    nodes[i] = nodes[size];
    cached[i] = cached[size];
    nodes[size] = null;
  }
}

