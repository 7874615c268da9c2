/** The modelled executors, their caches and the read path of spec §1.3. */
package io.locus.sim.exec;
