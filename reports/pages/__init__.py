"""The pages: self-contained HTML reports of runs and studies, written with one page toolkit
(toolkit.py: titles, templates, the page's output checks and command; plots.py: the figures). A page
imports the analysis floor (reports.analysis), the toolkit and plots (the run report also its
sections, sections_*.py), never another page."""
