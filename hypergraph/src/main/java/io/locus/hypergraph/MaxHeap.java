package io.locus.hypergraph;

import java.util.Arrays;

/**
 * Indexed binary max-heap of vertex ids keyed by a double gain. Gains are real-valued (net costs
 * are MiB, vertex weights seconds), so this takes the place of integer gain buckets. Keys are
 * stored in heap order, so sifting touches only the heap arrays.
 */
final class MaxHeap {
  private final int[] heap;
  private final double[] heapKey;
  private final int[] pos; // position of a vertex in heap, −1 when absent
  private int size;

  MaxHeap(int capacity) {
    heap = new int[capacity];
    heapKey = new double[capacity];
    pos = new int[capacity];
    Arrays.fill(pos, -1);
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  boolean contains(int v) {
    return pos[v] >= 0;
  }

  int top() {
    return heap[0];
  }

  double topKey() {
    return heapKey[0];
  }

  /** The key of v, which must be present. */
  double key(int v) {
    return heapKey[pos[v]];
  }

  void clear() {
    for (int i = 0; i < size; i++) {
      pos[heap[i]] = -1;
    }
    size = 0;
  }

  /** Inserts v, or changes its key when present. */
  void put(int v, double k) {
    int i = pos[v];
    if (i < 0) {
      up(size++, v, k);
    } else if (k > heapKey[i]) {
      up(i, v, k);
    } else if (k < heapKey[i]) {
      down(i, v, k);
    }
  }

  void remove(int v) {
    int i = pos[v];
    if (i < 0) {
      return;
    }
    pos[v] = -1;
    int last = --size;
    if (i < last) {
      int u = heap[last];
      double ku = heapKey[last];
      if (ku > heapKey[i]) {
        up(i, u, ku);
      } else {
        down(i, u, ku);
      }
    }
  }

  int pop() {
    int v = heap[0];
    remove(v);
    return v;
  }

  /** Places (v, kv) at hole i or above. */
  private void up(int i, int v, double kv) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      double kp = heapKey[parent];
      if (kp >= kv) {
        break;
      }
      int u = heap[parent];
      heap[i] = u;
      heapKey[i] = kp;
      pos[u] = i;
      i = parent;
    }
    heap[i] = v;
    heapKey[i] = kv;
    pos[v] = i;
  }

  /** Places (v, kv) at hole i or below. */
  private void down(int i, int v, double kv) {
    while (true) {
      int c = 2 * i + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && heapKey[c + 1] > heapKey[c]) {
        c++;
      }
      double kc = heapKey[c];
      if (kc <= kv) {
        break;
      }
      int u = heap[c];
      heap[i] = u;
      heapKey[i] = kc;
      pos[u] = i;
      i = c;
    }
    heap[i] = v;
    heapKey[i] = kv;
    pos[v] = i;
  }
}
