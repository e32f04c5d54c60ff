"""The classpath's jhooks jar must be this package's version (jhooks.api.version.VERSION)."""

import zipfile

import pytest

from jhooks.api.version import VERSION
from jhooks.bridge.process import classpath as cp


def make_jar(path, title, version):
    manifest = f"Manifest-Version: 1.0\r\nImplementation-Title: {title}\r\nImplementation-Version: {version}\r\n\r\n"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", manifest)
    return str(path)


def test_a_jhooks_jar_of_another_version_is_refused_naming_both(tmp_path, monkeypatch):
    other = make_jar(tmp_path / "jhooks-9.9.9.jar", "jhooks", "9.9.9")
    dependency = make_jar(tmp_path / "dep.jar", "something-else", "1.0")
    monkeypatch.setenv(cp.ENV_VAR, f"{dependency}:{other}")
    with pytest.raises(cp.ClasspathError) as e:
        cp.classpath()
    assert str(e.value).startswith(
        f"the jhooks jar {other} is version 9.9.9, but the Python package jhooks is version {VERSION}; "
    )


def test_the_jar_of_this_version_and_jarless_classpaths_pass(tmp_path, monkeypatch):
    same = make_jar(tmp_path / "jhooks.jar", "jhooks", VERSION)
    monkeypatch.setenv(cp.ENV_VAR, f"{same}:{tmp_path}")
    assert cp.classpath() == [same, str(tmp_path)]
    monkeypatch.setenv(cp.ENV_VAR, str(tmp_path))  # classes directories: no jar to check
    assert cp.classpath() == [str(tmp_path)]
