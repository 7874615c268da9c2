package io.locus.core.state;

import io.locus.core.model.Task;

/**
 * One queued task in the {@link DispatchIndex}; its position in each per-file list of the index is
 * kept for O(1) removal.
 */
abstract class IndexEntry {
  final Task task;
  /** The task's queue rank ({@link Task#queueRank()}: priority, then seq), its key everywhere. */
  final long seq;

  IndexEntry(Task task) {
    this.task = task;
    this.seq = task.queueRank();
  }

  abstract int fileCount();

  abstract String file(int i);

  abstract void setPos(int i, int pos);

  abstract int pos(int i);

  /** Sets the position in the list of {@code file}, which this task reads. */
  final void setPos(String file, int pos) {
    for (int i = 0; i < fileCount(); i++) {
      if (file(i).equals(file)) {
        setPos(i, pos);
        return;
      }
    }
    throw new IllegalStateException("task " + task.taskId() + " does not read " + file);
  }
}

