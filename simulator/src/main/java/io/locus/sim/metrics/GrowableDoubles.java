package io.locus.sim.metrics;

import java.util.Arrays;

/** A double array that grows on demand; unset slots read as 0. */
final class GrowableDoubles {
  private double[] a = new double[1024];
  private int length;

  void add(int index, double v) {
    ensure(index);
    a[index] += v;
  }

  void set(int index, double v) {
    ensure(index);
    a[index] = v;
  }

  double get(int index) {
    return index < length ? a[index] : 0.0;
  }

  int length() {
    return length;
  }

  double[] toArray(int n) {
    return Arrays.copyOf(a, n);
  }

  private void ensure(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("negative index " + index);
    }
    if (index >= a.length) {
      a = Arrays.copyOf(a, Math.max(index + 1, a.length * 2));
    }
    length = Math.max(length, index + 1);
  }
}
