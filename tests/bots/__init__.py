"""Bot tests: bot files and their resolution (strategies/)."""
