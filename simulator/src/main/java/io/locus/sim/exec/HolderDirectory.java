package io.locus.sim.exec;

import java.util.Collection;

/** The scheduler's cache index (I_map), a hint the read path consults for peers to read from. */
@FunctionalInterface
public interface HolderDirectory {
  Collection<String> holders(String file);

  HolderDirectory NONE = f -> java.util.List.of();
}
