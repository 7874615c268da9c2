/** CSV files, PNG plots (XChart) and console tables of simulation results. */
package io.locus.sim.output;
