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
 * of its holders are in the free pool; and the hot files with readers, ordered by their first
 * reader. So the notify step's "earliest hot task with a free best holder" is the first reader of
 * the first of those files with a free holder: a walk over hot files, one counter read each,
 * never over the backlog.
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
 * or leaving the free pool is O(min(files it holds, hot files)) counter updates. The order of the
 * files moves with their readers only, not with the free pool: with every slot busy (each
 * placement and completion moves a node in or out of the pool) and every node holding every
 * file, re-keying the files on each move would cost a tree update per file per move. A file is
 * counted (tracked) from the moment it is classified hot until its holders fall below the cold
 * threshold, readers or not, so a hot file whose queue empties and refills is not recounted.
 *
 * <p>Wide nodes. A node holding more than {@link #wideFiles} files would pay a counter update per
 * hot file it holds at every move (every node holding 1,000 hot files, every slot busy: 2,000
 * updates a decision, ten times the decision's own cost). So a node that enters the free pool
 * holding that many files is counted in no file's counter but kept in {@link #wideFree}, and a
 * file has a free holder when its counter is positive or a wide free node holds it (such a node
 * holds many files, so the first one looked at usually does). Its part 2 walks the one list of
 * hot tasks filtered by what it holds, as before the per-file lists: most hot tasks are its.
 */
final class HotReaders {
  private static final long NONE = Long.MIN_VALUE;
  /**
   * A node holding more files than this is wide (see the class comment). Package-private and
   * mutable for the tests only, which run the index tests with it at 1 so that wide and narrow
   * nodes mix; never changed in production.
   */
  static int wideFiles = 64;

  /** One hot file: its readers, its holders in the free pool, its key in {@link #heads}. */
  private static final class HotFile {
    final SeqList readers = new SeqList();
    int freeHolders;
    long head = NONE;
  }

  private final PoolState state;
  private final Map<String, HotFile> files = new HashMap<>();
  /** Hot files with a queued reader, by their first reader's queue rank. */
  private final TreeMap<Long, HotFile> heads = new TreeMap<>();
  /** Hot files with at least one queued reader. */
  private int withReaders;
  /** Free nodes counted as wide (not in the files' counters), in the order they became free. */
  private final java.util.LinkedHashSet<NodeView> wideFree = new java.util.LinkedHashSet<>();
  /** Counter updates made for nodes entering or leaving the free pool (tests count work). */
  long moveUpdates;

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
      if (n != null && counted(n)) {
        f.freeHolders++;
      }
    }
    files.put(file, f);
  }

  /** The file is cold again (its readers have already been taken out). */
  void untrack(String file) {
    HotFile f = files.remove(file);
    if (f != null && f.head != NONE) {
      heads.remove(f.head);
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
    if (node.cached.size() > wideFiles) {
      return null; // most hot tasks are a wide node's: the filtered walk wastes little
    }
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
    if (f != null && counted(node)) {
      f.freeHolders++;
    }
  }

  /** {@code node} stopped holding {@code file} (its free-pool membership unchanged). */
  void holderRemoved(String file, NodeView node) {
    HotFile f = files.get(file);
    if (f != null && counted(node)) {
      f.freeHolders--;
    }
  }

  /** {@code node} entered ({@code free}) or left the free pool. */
  void freeChanged(NodeView node, boolean free) {
    if (free ? node.cached.size() > wideFiles : wideFree.remove(node)) {
      if (free) {
        wideFree.add(node);
      }
      return; // a wide node: in wideFree while free, in no counter
    }
    if (files.isEmpty()) {
      return;
    }
    int d = free ? 1 : -1;
    if (node.cached.size() <= files.size()) {
      for (String file : node.cached.keySet()) {
        HotFile f = files.get(file);
        moveUpdates++;
        if (f != null) {
          f.freeHolders += d;
        }
      }
    } else {
      for (Map.Entry<String, HotFile> e : files.entrySet()) {
        moveUpdates++;
        if (node.cached.containsKey(e.getKey())) {
          e.getValue().freeHolders += d;
        }
      }
    }
  }

  /**
   * The earliest hot task whose file has a free holder, or null; {@code probes[0]} counts the
   * files looked at. Only files with readers are looked at, at most one per hot file.
   */
  Task firstWithFreeHolder(long[] probes) {
    for (Map.Entry<Long, HotFile> e : heads.entrySet()) {
      probes[0]++;
      HotFile f = e.getValue();
      if (f.freeHolders > 0) {
        return f.readers.first().task;
      }
      if (!wideFree.isEmpty()) {
        String file = f.readers.first().task.inputs().get(0).id();
        for (NodeView n : wideFree) {
          probes[0]++;
          if (n.cached.containsKey(file)) {
            return f.readers.first().task;
          }
        }
      }
    }
    return null;
  }

  /** Whether the node counts in its files' free-holder counters: free and not wide. */
  private boolean counted(NodeView n) {
    return state.isFree(n) && !wideFree.contains(n);
  }

  /** Keeps the file's key in {@link #heads}: its first reader's rank, while it has readers. */
  private void refresh(HotFile f) {
    long head = !f.readers.isEmpty() ? f.readers.first().seq : NONE;
    if (head == f.head) {
      return;
    }
    if (f.head != NONE) {
      heads.remove(f.head);
    }
    if (head != NONE) {
      heads.put(head, f);
    }
    f.head = head;
  }
}
