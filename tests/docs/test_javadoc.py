"""The Java reference builds with ``gradle javadoc`` (and the conformance artifact's with ``gradle
conformanceJavadoc``) under doclint: every group but "missing" (HTML,
references, syntax, accessibility; a public member without a comment is left to review) with
``-Werror``, so any doclint error or warning fails the build; and those options really catch both."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = ROOT / "build" / "tmp" / "javadoc" / "javadoc.options"  # written by Gradle's javadoc task


@pytest.fixture(scope="module")
def javadoc_build():
    env = {k: v for k, v in os.environ.items() if k != "JHOOKS_CLASSPATH"}
    done = subprocess.run(
        ["gradle", "--console=plain", "javadoc", "conformanceJavadoc"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return done


def test_gradle_javadoc_builds_the_reference_with_doclint_and_werror(javadoc_build):
    assert javadoc_build.returncode == 0, javadoc_build.stdout[-3000:] + javadoc_build.stderr[-5000:]
    assert (ROOT / "build" / "docs" / "javadoc" / "org" / "jhooks" / "ndarray" / "ViewLease.html").is_file()
    # the conformance artifact's own reference, under the same rules
    conformance = ROOT / "build" / "docs" / "conformance-javadoc" / "org" / "jhooks" / "conformance"
    assert (conformance / "ConformanceRunner.html").is_file()
    assert not (ROOT / "build" / "docs" / "javadoc" / "org" / "jhooks" / "conformance").exists()
    options = OPTIONS.read_text().split()
    assert "-Werror" in options
    assert any(o.startswith("-Xdoclint:all") for o in options)


def _options_without_sources() -> list[str]:
    """Gradle's javadoc options (the build's own), without its source files and output directory."""
    out: list[str] = []
    skip = False
    for word in shlex.split(OPTIONS.read_text()):
        if skip:
            skip = False
        elif word == "-d":
            skip = True
        elif not word.endswith(".java"):
            out.append(word)
    return out


BROKEN = {
    # a doclint error: a reference to nothing
    "error": ("/** Uses {@link NoSuchClass}. */\npublic class Broken {}\n", "reference not found"),
    # a doclint warning only, an error under -Werror
    "warning": (
        "/** Text.\n *\n * <p>\n * <p>More. */\npublic class Broken {}\n",
        "warnings found and -Werror specified",
    ),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_the_builds_javadoc_options_fail_on_a_doclint_problem(javadoc_build, tmp_path, kind):
    assert javadoc_build.returncode == 0, javadoc_build.stderr[-3000:]
    source, expected = BROKEN[kind]
    broken = tmp_path / "Broken.java"
    broken.write_text(source)
    done = subprocess.run(
        ["javadoc", *_options_without_sources(), "-d", str(tmp_path / "out"), str(broken)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0, done.stdout + done.stderr
    assert expected in done.stdout + done.stderr
