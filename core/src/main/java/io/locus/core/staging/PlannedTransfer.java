package io.locus.core.staging;

import io.locus.core.model.InputFile;

/** One entry of a staging plan: file, storage node, [start, end) on that node's Gantt chart. */
public record PlannedTransfer(InputFile unit, int storageNode, double start, double end) {}
