package io.locus.core.model;

/** Where an input is read from. */
public enum InputSource {
  LOCAL,
  PEER,
  STORAGE
}
