package io.locus.core.staging;

import io.locus.core.model.DataUnit;

/** One entry of a staging plan: file, storage node, [start, end) on that node's Gantt chart. */
public record PlannedTransfer(DataUnit unit, int storageNode, double start, double end) {}
