package io.locus.core.state;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;

/**
 * A task with one input (the common case): every holder of the file holds all of its bytes, so
 * its best holders are the file's holders (none when the file is empty) and it has no partial
 * holder. Nothing per holder is stored here: the holder set is PoolState's.
 */
final class SingleEntry extends IndexEntry {
  final String file;
  final long bytes;
  int pos;
  /** Kept in the index's hot list (its file has many holders), not in its holders' best sets. */
  boolean hot;

  SingleEntry(Task task, InputFile u) {
    super(task);
    this.file = u.id();
    this.bytes = u.bytes();
  }

  @Override
  int fileCount() {
    return 1;
  }

  @Override
  String file(int i) {
    return file;
  }

  @Override
  void setPos(int i, int p) {
    pos = p;
  }

  @Override
  int pos(int i) {
    return pos;
  }
}

