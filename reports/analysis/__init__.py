"""The analysis floor: reading run directories, metrics, statistics, targets and verdicts.

Studies decide with these modules and pages show what they decided; nothing here imports a page
(reports.pages) or the terminal (reports.terminal)."""
