"""jhooks-conformance: its version and jhooks requirement (both jhooks's version) and its jar, the
Java conformance suite (``gradle conformanceJar`` -> jhooks/conformance/_jars/)."""

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from jhooks_build import build_py_with_jars, version  # noqa: E402

VERSION = version()
setup(
    version=VERSION,
    install_requires=[
        f"jhooks=={VERSION}",
        # the scenario files are checked against data/scenario.schema.json
        "jsonschema>=4.20",
        # python -m jhooks conformance --junit-xml
        "junitparser>=5,<6",
    ],
    cmdclass={
        "build_py": build_py_with_jars(
            ["conformanceJar"], f"build/libs/jhooks-conformance-{VERSION}.jar", "jhooks.conformance"
        )
    },
)
