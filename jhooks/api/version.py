"""The jhooks version: its one source of truth.

``pyproject.toml`` (setuptools, the wheel), ``build.gradle`` (the jar manifest's
``Implementation-Version``, ``org.jhooks.Version``, the Maven POM) and ``jhooks.__version__`` all
read this line; ``jhooks.bridge.process.classpath`` refuses a jhooks jar of another version.
"""

VERSION = "0.1.0"
"""This release, ``major.minor.patch`` (also ``jhooks.__version__``; Java: ``org.jhooks.Version.VERSION``)."""
