package io.locus.core.state;

import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The hot files of a {@link DispatchIndex} (files with many holders, whose one-input readers are
 * not filed under every holder): per hot file, its one-input readers in queue order and how many
 * of its holders are in the free pool; and, ordered by their first reader, the hot files that have
 * a free holder. So the notify step's "earliest hot task with a free best holder" is the first
 * reader of the first of those files: O(log files), whatever the backlog.
 *
 * <p>Why (issue 25, congestion collapse): the index used to find that task by walking the hot
 * tasks in queue order and probing each one's file for a free holder, bounded by the window. When
 * the holders of the popular files are busy and other nodes are free (MCH waiting for its best
 * holders, the ordinary case under load) every input walked the whole window, W × holders probes:
 * {@code locus bench} MCH on zipf fell from 7,800 placed/s to about 100/s once a backlog formed.
 *
 * <p>The node side (part 2: a notified node's best tasks) merges the reader lists of the hot files
 * the node holds, instead of walking every hot task and keeping those of its files: a node holding
 * a rarely read file behind a backlog of a popular file's readers walked that backlog.
 *
 * <p>Upkeep: a reader in or out is O(log n); a holder added or removed is O(1); a node entering
 * or leaving the free pool is O(min(files it holds, hot files)). A file is counted (tracked) from
 * the moment it is classified hot until its holders fall below the cold threshold, readers or
 * not, so a hot file whose queue empties and refills is not recounted over its holders.
 */
final class HotReaders {
  private static final long NONE = Long.MIN_VALUE;

  /** One hot file: its readers, its holders in the free pool, its key in {@link #freeHeads}. */
  private static final class HotFile {
    final SeqList readers = new SeqList();
    int freeHolders;
    long head = NONE;
  }

  private final PoolState state;
  private final Map<String, HotFile> files = new HashMap<>();
  /** Hot files with a queued reader and a free holder, by their first reader's queue rank. */
  private final TreeMap<Long, HotFile> freeHeads = new TreeMap<>();
  /** Hot files with at least one queued reader. */
  private int withReaders;

  HotReaders(PoolState state) {
    this.state = state;
  }

  boolean isHot(String file) {
    return files.containsKey(file);
  }

  /** The file is hot from now on: its free holders are counted once, here. */
  void track(String file) {
    if (files.containsKey(file)) {
      return;
    }
    HotFile f = new HotFile();
    for (String id : state.holders(file)) {
      NodeView n = state.node(id);
      if (n != null && state.isFree(n)) {
        f.freeHolders++;
      }
    }
    files.put(file, f);
  }

  /** The file is cold again (its readers have already been taken out). */
  void untrack(String file) {
    HotFile f = files.remove(file);
    if (f != null && f.head != NONE) {
      freeHeads.remove(f.head);
    }
  }

  void addReader(SingleEntry s) {
    HotFile f = files.get(s.file);
    if (f.readers.isEmpty()) {
      withReaders++;
    }
    f.readers.add(s);
    refresh(f);
  }

  void removeReader(SingleEntry s) {
    HotFile f = files.get(s.file);
    boolean had = !f.readers.isEmpty();
    f.readers.remove(s);
    if (had && f.readers.isEmpty()) {
      withReaders--;
    }
    refresh(f);
  }

  /**
   * {@code own} merged in queue order with the readers of the hot files {@code node} holds; null
   * when the node holds every hot file that has readers (then every hot task is one of its best,
   * and the caller's walk of the whole hot list wastes nothing).
   */
  Iterator<Task> merged(NodeView node, Iterator<Task> own) {
    List<Iterator<Task>> lists = new ArrayList<>();
    if (node.cached.size() <= files.size()) {
      for (String file : node.cached.keySet()) {
        HotFile f = files.get(file);
        if (f != null && !f.readers.isEmpty()) {
          lists.add(f.readers.iterator());
        }
      }
    } else {
      for (Map.Entry<String, HotFile> e : files.entrySet()) {
        if (!e.getValue().readers.isEmpty() && node.cached.containsKey(e.getKey())) {
          lists.add(e.getValue().readers.iterator());
        }
      }
    }
    if (lists.size() == withReaders && withReaders > 1) {
      return null;
    }
    lists.add(own);
    return new RankMerge(lists);
  }

  /** Iterators of tasks in queue order merged into one, in queue order. */
  private static final class RankMerge implements Iterator<Task> {
    private record Head(Task task, Iterator<Task> rest) {}

    private final PriorityQueue<Head> heads =
        new PriorityQueue<>((a, b) -> Long.compare(a.task.queueRank(), b.task.queueRank()));

    RankMerge(List<Iterator<Task>> lists) {
      for (Iterator<Task> it : lists) {
        if (it.hasNext()) {
          heads.add(new Head(it.next(), it));
        }
      }
    }

    @Override
    public boolean hasNext() {
      return !heads.isEmpty();
    }

    @Override
    public Task next() {
      Head h = heads.poll();
      if (h == null) {
        throw new NoSuchElementException();
      }
      if (h.rest.hasNext()) {
        heads.add(new Head(h.rest.next(), h.rest));
      }
      return h.task;
    }
  }

  /** {@code node} became a holder of {@code file} (its free-pool membership unchanged). */
  void holderAdded(String file, NodeView node) {
    HotFile f = files.get(file);
    if (f != null && state.isFree(node)) {
      f.freeHolders++;
      refresh(f);
    }
  }

  /** {@code node} stopped holding {@code file} (its free-pool membership unchanged). */
  void holderRemoved(String file, NodeView node) {
    HotFile f = files.get(file);
    if (f != null && state.isFree(node)) {
      f.freeHolders--;
      refresh(f);
    }
  }

  /** {@code node} entered ({@code free}) or left the free pool. */
  void freeChanged(NodeView node, boolean free) {
    if (files.isEmpty()) {
      return;
    }
    int d = free ? 1 : -1;
    if (node.cached.size() <= files.size()) {
      for (String file : node.cached.keySet()) {
        HotFile f = files.get(file);
        if (f != null) {
          f.freeHolders += d;
          refresh(f);
        }
      }
    } else {
      for (Map.Entry<String, HotFile> e : files.entrySet()) {
        if (node.cached.containsKey(e.getKey())) {
          e.getValue().freeHolders += d;
          refresh(e.getValue());
        }
      }
    }
  }

  /** The earliest hot task whose file has a free holder, or null. */
  Task firstWithFreeHolder() {
    return freeHeads.isEmpty() ? null : freeHeads.firstEntry().getValue().readers.first().task;
  }

  /** Keeps the file's key in {@link #freeHeads}: its first reader, while it has a free holder. */
  private void refresh(HotFile f) {
    long head = f.freeHolders > 0 && !f.readers.isEmpty() ? f.readers.first().seq : NONE;
    if (head == f.head) {
      return;
    }
    if (f.head != NONE) {
      freeHeads.remove(f.head);
    }
    if (head != NONE) {
      freeHeads.put(head, f);
    }
    f.head = head;
  }
}
