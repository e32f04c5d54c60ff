"""org.jhooks:jhooks and org.jhooks:jhooks-conformance as a JVM engineer depends on them: ``gradle
publish`` writes the directory repository build/repo (jar, sources jar, javadoc jar, POM of each),
``gradle publishToMavenLocal`` a local repository. The library jar holds only the library; the
natives' platform is the application's choice (an optional dependency in the POMs, as
tensorflow-core-api leaves it). tests/examples builds and runs the example app (examples/jvm-app)
from the coordinates on a copy outside the checkout; tests/install/test_jvm_conformance_entry_point.py
runs its conformance test.
"""

import os
import subprocess
import xml.etree.ElementTree as ET
import zipfile

import pytest

from jhooks.api.version import VERSION

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_REPO = os.path.join(REPO, "build", "repo")
ARTIFACT_DIR = os.path.join(BUILD_REPO, "org", "jhooks", "jhooks", VERSION)
CONFORMANCE_DIR = os.path.join(BUILD_REPO, "org", "jhooks", "jhooks-conformance", VERSION)
NOT_LIBRARY = tuple(f"org/jhooks/{p}/" for p in ("conformance", "testing", "demo", "examples", "bench"))
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def gradle(*args, cwd=REPO, timeout=900):
    env = {k: v for k, v in os.environ.items() if k != "JHOOKS_CLASSPATH"}
    done = subprocess.run(
        ["gradle", "-q", "--console=plain", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return done


@pytest.fixture(scope="module")
def published():
    gradle("publish")
    return ARTIFACT_DIR


def test_publish_writes_jar_sources_javadoc_and_a_pom_with_scoped_dependencies(published, capsys):
    base = os.path.join(published, f"jhooks-{VERSION}")
    for suffix in (".jar", "-sources.jar", "-javadoc.jar", ".pom"):
        assert os.path.getsize(base + suffix) > 0
        assert os.path.exists(base + suffix + ".sha1")
    kinds = (".jar", "-sources.jar", "-javadoc.jar")
    with capsys.disabled():  # shown in CI's log
        print("\n" + ", ".join(f"jhooks-{VERSION}{k} {os.path.getsize(base + k) / 1024:.0f} KiB" for k in kinds))
    pom = _pom(base + ".pom", "jhooks")
    deps = _dependencies(pom)
    assert deps[("tensorflow-core-api", None)] == ("1.1.0", "compile", None)
    assert deps[("ndarray", None)] == ("1.0.0", "compile", None)
    # the natives of the platform tested here, optional: the application picks its own
    assert deps[("tensorflow-core-native", "linux-x86_64")] == ("1.1.0", "runtime", "true")
    assert deps[("gson", None)][1] == "runtime"
    with zipfile.ZipFile(base + ".jar") as jar:
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
        assert f"Implementation-Version: {VERSION}" in manifest and "Implementation-Title: jhooks\r\n" in manifest
        assert jar.read("org/jhooks/version.properties").decode() == f"version={VERSION}\n"
        assert {"META-INF/LICENSE", "META-INF/NOTICE"} <= set(jar.namelist())
        # only the library: no conformance suite, test support, demo, examples, benchmarks or scenario data
        assert "org/jhooks/tf/MonitoredSession.class" in jar.namelist()
        assert [n for n in jar.namelist() if n.startswith(NOT_LIBRARY) or n.endswith(".json")] == []
    with zipfile.ZipFile(base + "-sources.jar") as sources:
        assert "org/jhooks/Version.java" in sources.namelist()
        assert [n for n in sources.namelist() if n.startswith(NOT_LIBRARY)] == []


def _pom(path, artifact_id):
    """The POM at ``path``, checked for the coordinates and what Maven Central requires of a POM."""
    pom = ET.parse(path).getroot()
    text = {k: pom.findtext(f"m:{k}", namespaces=POM_NS) for k in ("groupId", "artifactId", "version", "name", "url")}
    assert text == {
        "groupId": "org.jhooks",
        "artifactId": artifact_id,
        "version": VERSION,
        "name": artifact_id,
        "url": text["url"],
    }
    assert text["url"].startswith("https://") and pom.findtext("m:description", namespaces=POM_NS)
    assert pom.findtext("m:licenses/m:license/m:name", namespaces=POM_NS) == "Apache-2.0"
    assert pom.findtext("m:scm/m:url", namespaces=POM_NS) == text["url"]
    assert pom.findtext("m:scm/m:connection", namespaces=POM_NS) == f"scm:git:{text['url']}.git"
    assert pom.findtext("m:developers/m:developer/m:name", namespaces=POM_NS)
    return pom


def _dependencies(pom):
    """(artifactId, classifier) -> (version, scope, optional) of every dependency."""
    return {
        (d.findtext("m:artifactId", namespaces=POM_NS), d.findtext("m:classifier", namespaces=POM_NS)): (
            d.findtext("m:version", namespaces=POM_NS),
            d.findtext("m:scope", namespaces=POM_NS),
            d.findtext("m:optional", namespaces=POM_NS),
        )
        for d in pom.iterfind("m:dependencies/m:dependency", POM_NS)
    }


def test_publish_writes_the_conformance_artifact_on_the_library(published, capsys):
    base = os.path.join(CONFORMANCE_DIR, f"jhooks-conformance-{VERSION}")
    for suffix in (".jar", "-sources.jar", "-javadoc.jar", ".pom"):
        assert os.path.getsize(base + suffix) > 0
        assert os.path.exists(base + suffix + ".sha1") and os.path.exists(base + suffix + ".md5")
    with capsys.disabled():
        print(f"\njhooks-conformance-{VERSION}.jar {os.path.getsize(base + '.jar') / 1024:.0f} KiB")
    deps = _dependencies(_pom(base + ".pom", "jhooks-conformance"))
    assert deps[("jhooks", None)] == (VERSION, "compile", None)
    assert deps[("gson", None)][1] == "runtime"
    assert deps[("tensorflow-core-native", "linux-x86_64")] == ("1.1.0", "runtime", "true")
    assert not any(a == "junit" for a, _ in deps)  # the user's test build brings JUnit
    with zipfile.ZipFile(base + ".jar") as jar:
        names = set(jar.namelist())
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
    assert "Implementation-Title: jhooks-conformance\r\n" in manifest
    assert {
        "org/jhooks/conformance/ConformanceRunner.class",
        "org/jhooks/testing/FaultInjectingSessionCreator.class",
    } <= names
    # the scenario data at the resource root, where org.jhooks.conformance.Scenarios reads it
    assert {"scenario-index.json", "scenario.schema.json", "xfail-java.json"} <= names
    assert len([n for n in names if n.startswith("scenarios/")]) >= 100
    assert [
        n
        for n in names
        if n.endswith(".class") and not n.startswith(("org/jhooks/conformance/", "org/jhooks/testing/"))
    ] == []
    with open(os.path.join(os.path.dirname(CONFORMANCE_DIR), "maven-metadata.xml")) as f:
        assert f"<release>{VERSION}</release>" in f.read()


def test_publish_to_maven_local_installs_the_same_artifacts(tmp_path, published):
    gradle("publishToMavenLocal", f"-Dmaven.repo.local={tmp_path}")
    for artifact in ("jhooks", "jhooks-conformance"):
        local = tmp_path / "org" / "jhooks" / artifact / VERSION
        assert sorted(p.name for p in local.iterdir() if p.suffix in (".jar", ".pom")) == [
            f"{artifact}-{VERSION}-javadoc.jar",
            f"{artifact}-{VERSION}-sources.jar",
            f"{artifact}-{VERSION}.jar",
            f"{artifact}-{VERSION}.pom",
        ]
        with (
            open(local / f"{artifact}-{VERSION}.pom") as f,
            open(os.path.join(BUILD_REPO, "org", "jhooks", artifact, VERSION, f"{artifact}-{VERSION}.pom")) as g,
        ):
            assert f.read() == g.read()  # the same POM both ways


def test_the_example_names_this_version():
    example = os.path.join(REPO, "examples", "jvm-app")
    with open(os.path.join(example, "build.gradle")) as f:
        assert f"findProperty('jhooksVersion') ?: '{VERSION}'" in f.read()
    pom = ET.parse(os.path.join(example, "pom.xml")).getroot()
    assert pom.findtext("m:properties/m:jhooks.version", namespaces=POM_NS) == VERSION
