package io.locus.operators;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.state.MapState;

/** A MapState of one key on the heap, for unit tests of classes that write through to state. */
final class HeapMapState<K extends Comparable<K>, V> implements MapState<K, V> {
  final TreeMap<K, V> map = new TreeMap<>();

  @Override
  public V get(K key) {
    return map.get(key);
  }

  @Override
  public void put(K key, V value) {
    map.put(key, value);
  }

  @Override
  public void putAll(Map<K, V> m) {
    map.putAll(m);
  }

  @Override
  public void remove(K key) {
    map.remove(key);
  }

  @Override
  public boolean contains(K key) {
    return map.containsKey(key);
  }

  @Override
  public Iterable<Map.Entry<K, V>> entries() {
    return map.entrySet();
  }

  @Override
  public Iterable<K> keys() {
    return map.keySet();
  }

  @Override
  public Iterable<V> values() {
    return map.values();
  }

  @Override
  public Iterator<Map.Entry<K, V>> iterator() {
    return map.entrySet().iterator();
  }

  @Override
  public boolean isEmpty() {
    return map.isEmpty();
  }

  @Override
  public void clear() {
    map.clear();
  }
}
