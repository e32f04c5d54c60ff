"""org.jhooks:jhooks as a JVM engineer depends on it: ``gradle publish`` writes the directory
repository build/repo (jar, sources jar, javadoc jar, POM), ``gradle publishToMavenLocal`` a local
repository. tests/examples builds and runs the example app (examples/jvm-app) from the coordinate.
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
    pom = ET.parse(base + ".pom").getroot()
    assert [pom.findtext(f"m:{k}", namespaces=POM_NS) for k in ("groupId", "artifactId", "version")] == [
        "org.jhooks",
        "jhooks",
        VERSION,
    ]
    deps = {
        (d.findtext("m:artifactId", namespaces=POM_NS), d.findtext("m:classifier", namespaces=POM_NS)): (
            d.findtext("m:version", namespaces=POM_NS),
            d.findtext("m:scope", namespaces=POM_NS),
        )
        for d in pom.iterfind("m:dependencies/m:dependency", POM_NS)
    }
    assert deps[("tensorflow-core-api", None)] == ("1.1.0", "compile")
    assert deps[("ndarray", None)] == ("1.0.0", "compile")
    assert deps[("tensorflow-core-native", "linux-x86_64")] == ("1.1.0", "runtime")
    assert deps[("gson", None)][1] == "runtime"
    with zipfile.ZipFile(base + ".jar") as jar:
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
        assert f"Implementation-Version: {VERSION}" in manifest and "Implementation-Title: jhooks" in manifest
        assert jar.read("org/jhooks/version.properties").decode() == f"version={VERSION}\n"
        assert {"META-INF/LICENSE", "META-INF/NOTICE"} <= set(jar.namelist())
    with zipfile.ZipFile(base + "-sources.jar") as sources:
        assert "org/jhooks/Version.java" in sources.namelist()


def test_publish_to_maven_local_installs_the_same_artifacts(tmp_path, published):
    gradle("publishToMavenLocal", f"-Dmaven.repo.local={tmp_path}")
    local = tmp_path / "org" / "jhooks" / "jhooks" / VERSION
    assert sorted(p.name for p in local.iterdir() if p.suffix in (".jar", ".pom")) == [
        f"jhooks-{VERSION}-javadoc.jar",
        f"jhooks-{VERSION}-sources.jar",
        f"jhooks-{VERSION}.jar",
        f"jhooks-{VERSION}.pom",
    ]


def test_the_example_names_this_version():
    example = os.path.join(REPO, "examples", "jvm-app")
    with open(os.path.join(example, "build.gradle")) as f:
        assert f"findProperty('jhooksVersion') ?: '{VERSION}'" in f.read()
    pom = ET.parse(os.path.join(example, "pom.xml")).getroot()
    assert pom.findtext("m:properties/m:jhooks.version", namespaces=POM_NS) == VERSION
