/** Reads as flows over capacity-limited resources, with max-min fair rates (spec §1.4). */
package io.locus.sim.flow;
