"""The pages: self-contained HTML reports of runs and studies, written with one page toolkit
(toolkit.py: templates, numbers, the shared page skeleton). A page imports the analysis floor
(reports.analysis) and the toolkit, never another page."""
