"""Page tests: the HTML reports of runs and studies (reports/pages)."""
