/** The {@code simulate} and {@code experiment} commands (picocli) and the experiment matrices of spec §5. */
package io.locus.cli.sim;
