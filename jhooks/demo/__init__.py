"""The jhooks demo: one logistic regression trained first on the JVM with Python hooks, then in
Python with Java hooks, each side resuming from the other's checkpoint (``python -m jhooks demo``).
See README.md, "The two commands"."""
