/** The batch resource manager (LRM) model of spec §2.4. */
package io.locus.sim.provision;
