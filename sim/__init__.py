"""courtsim simulation engines: shared machinery in sim.core, one package per game."""
