/** Feeding arrival-sorted job streams (with stage barriers) into virtual time. */
package io.locus.sim.workload;
