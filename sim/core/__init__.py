"""Game-independent engine pieces: random streams, batch runner, result schema, progress."""
