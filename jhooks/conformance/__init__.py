"""The shared conformance suite: scenario data, scripted recording hooks and model recipes.

The scenario files in ``data/`` are the same resources the jar ships; docs/conformance.md
describes the format and ``data/scenario.schema.json`` is normative. Nothing here imports
tensorflow or jpype at import time.
"""
