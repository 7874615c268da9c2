package io.locus.hypergraph;
