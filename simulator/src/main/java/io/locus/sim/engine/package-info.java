/** Virtual time: an event queue ordered by (time, scheduling sequence). */
package io.locus.sim.engine;
