package io.locus.core.model;

/** Where an input is read from. */
public enum FetchSource {
  LOCAL,
  PEER,
  STORAGE
}
