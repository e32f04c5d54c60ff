"""jhooks' benchmarks (``python benchmarks/run.py``); a package so that its modules import each
other by one unambiguous name."""
