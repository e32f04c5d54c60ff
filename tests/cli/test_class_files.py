"""jhooks.cli.class_files: whether a classpath holds a main class, read from real directories and
jars on disk as ``java -cp`` reads them (``dir/*``, manifest Class-Path, multi-release jars); the
JVM decides what cannot be read. The real JVM's verdict on the same classpath is checked too."""

from __future__ import annotations

import os
import subprocess
import zipfile

import pytest

from jhooks.cli.class_files import class_file_present


def jar(path, *names, manifest=None):
    with zipfile.ZipFile(path, "w") as z:
        if manifest is not None:
            z.writestr("META-INF/MANIFEST.MF", manifest)
        for name in names:
            z.writestr(name, b"\xca\xfe\xba\xbe")
    return str(path)


def test_a_classes_directory(tmp_path):
    (tmp_path / "com" / "example").mkdir(parents=True)
    (tmp_path / "com" / "example" / "Train.class").write_bytes(b"")
    (tmp_path / "com" / "example" / "Train$Inner.class").write_bytes(b"")
    assert class_file_present("com.example.Train", [str(tmp_path)]) is True
    assert class_file_present("com.example.Train$Inner", [str(tmp_path)]) is True
    assert class_file_present("com.example.Trian", [str(tmp_path)]) is False


def test_a_jar_a_wildcard_and_a_missing_entry(tmp_path):
    (tmp_path / "lib").mkdir()
    jar(tmp_path / "lib" / "app.jar", "com/example/Train.class")
    missing = str(tmp_path / "nowhere.jar")
    assert class_file_present("com.example.Train", [missing, str(tmp_path / "lib" / "app.jar")]) is True
    assert class_file_present("com.example.Train", [str(tmp_path / "lib" / "*")]) is True
    assert class_file_present("com.example.Other", [str(tmp_path / "lib" / "*"), missing]) is False


def test_the_jars_a_manifest_class_path_names(tmp_path):
    (tmp_path / "deps").mkdir()
    jar(tmp_path / "deps" / "train.jar", "com/example/Train.class")
    manifest = "Manifest-Version: 1.0\r\nClass-Path: deps/other.jar http://example.com/x.jar \r\n deps/train.jar\r\n"
    app = jar(tmp_path / "app.jar", "com/example/App.class", manifest=manifest)
    assert class_file_present("com.example.Train", [app]) is True  # named on the continuation line
    assert class_file_present("com.example.Nope", [app]) is False


def test_a_multi_release_jar(tmp_path):
    app = jar(tmp_path / "app.jar", "META-INF/versions/17/com/example/Train.class")
    assert class_file_present("com.example.Train", [app]) is True


def test_what_cannot_be_read_is_left_to_the_jvm(tmp_path):
    (tmp_path / "broken.jar").write_bytes(b"not a zip")
    assert class_file_present("com.example.Train", [str(tmp_path / "broken.jar")]) is None
    assert class_file_present("java.lang.String", []) is None  # the platform's classes need no entry


@pytest.mark.parametrize("name", ["com.example.Train", "com.example.Other"])
def test_the_jvm_agrees(tmp_path, name):
    """``java -cp`` with the same wildcard and manifest classpath finds what the scan finds."""
    (tmp_path / "src" / "com" / "example").mkdir(parents=True)
    (tmp_path / "src" / "com" / "example" / "Train.java").write_text(
        'package com.example; public class Train { public static void main(String[] a) { System.out.print("ok"); } }'
    )
    subprocess.run(["javac", "-d", str(tmp_path / "classes"), str(tmp_path / "src/com/example/Train.java")], check=True)
    (tmp_path / "deps").mkdir()
    with zipfile.ZipFile(tmp_path / "deps" / "train.jar", "w") as z:
        z.write(tmp_path / "classes/com/example/Train.class", "com/example/Train.class")
    (tmp_path / "lib").mkdir()
    jar(tmp_path / "lib" / "app.jar", manifest="Manifest-Version: 1.0\r\nClass-Path: ../deps/train.jar\r\n\r\n")
    entries = [str(tmp_path / "lib" / "*")]
    done = subprocess.run(["java", "-cp", os.pathsep.join(entries), name], capture_output=True, text=True)
    assert (done.returncode == 0) is class_file_present(name, entries), done.stderr
