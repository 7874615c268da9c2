package io.locus.core.model;

/** How one input of a placed task is obtained; {@code peer} is set only for PEER. */
public record InputFetch(DataUnit unit, FetchSource source, String peer, boolean cache) {}
