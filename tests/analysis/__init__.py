"""Analysis tests: metrics, statistics, targets and verdicts (reports/analysis)."""
