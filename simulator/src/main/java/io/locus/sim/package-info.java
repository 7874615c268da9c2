package io.locus.sim;
