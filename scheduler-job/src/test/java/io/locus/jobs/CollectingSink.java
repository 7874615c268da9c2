package io.locus.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that keeps every record it is given, for a test to read once the job ended. Flink
 * serialises the sink into each writer, so the records go to a static map by the sink's id: the
 * test's MiniCluster runs in the test's JVM.
 */
final class CollectingSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, Queue<Object>> RECEIVED = new ConcurrentHashMap<>();

  private final String id = UUID.randomUUID().toString();

  CollectingSink() {
    RECEIVED.put(id, new ConcurrentLinkedQueue<>());
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    Queue<Object> into = RECEIVED.get(id);
    return new SinkWriter<>() {
      @Override
      public void write(T element, Context ctx) {
        into.add(element);
      }

      @Override
      public void flush(boolean endOfInput) {}

      @Override
      public void close() {}
    };
  }

  /** What the writers received so far, every subtask's, in no particular order across them. */
  @SuppressWarnings("unchecked")
  List<T> received() {
    List<T> out = new ArrayList<>();
    RECEIVED.get(id).forEach(o -> out.add((T) o));
    return out;
  }
}
