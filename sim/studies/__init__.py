"""Studies orchestrate runs: compare (rule variants on common random numbers); next: sweep, tune, sensitivity."""
