"""org.jhooks:jhooks as a JVM engineer depends on it: ``gradle publish`` writes the directory
repository build/repo (jar, sources jar, javadoc jar, POM), ``gradle publishToMavenLocal`` a local
repository, and the example app (examples/jvm-app) is built and run from the coordinate alone, with
Gradle and with Maven, on a copy outside the checkout and with no other classpath.

Maven keeps what it downloads in build/m2-example (reused between runs); jhooks itself is removed
from there first, so the run always resolves the freshly published artifact.
"""

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile

import pytest

from jhooks.api.version import VERSION

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_REPO = os.path.join(REPO, "build", "repo")
ARTIFACT_DIR = os.path.join(BUILD_REPO, "org", "jhooks", "jhooks", VERSION)
JAVACPP_CACHE = os.path.join(REPO, "build", "javacpp-cache")
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
STEPS = 60


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


def _example_copy(tmp_path):
    app = tmp_path / "jvm-app"
    shutil.copytree(os.path.join(REPO, "examples", "jvm-app"), app, ignore=shutil.ignore_patterns("build", ".gradle"))
    return app


def _check_trained(output, checkpoint_dir):
    line = [x for x in output.splitlines() if "trained: " in x][-1]  # Maven may prefix a colour reset
    fields = dict(re.findall(r"(\w+)=(\[[^]]*\]|\S+)", line))
    assert int(fields["global_step"]) == STEPS, line
    assert float(fields["loss"]) < 1e-3 and abs(float(fields["w"]) - 3) < 0.05 and abs(float(fields["b"]) + 1) < 0.05
    assert "model.ckpt-50.index" in fields["checkpoints"], line
    assert (checkpoint_dir / f"model.ckpt-{STEPS}.index").exists()  # the final save when the session closed


def test_the_example_app_builds_and_trains_with_gradle(tmp_path, published):
    app = _example_copy(tmp_path)
    ckpt = tmp_path / "ckpt"
    done = gradle(
        "run",
        f"-PjhooksRepo={BUILD_REPO}",
        f"-PcheckpointDir={ckpt}",
        f"-Psteps={STEPS}",
        f"-PjavacppCacheDir={JAVACPP_CACHE}",
        cwd=app,
    )
    _check_trained(done.stdout, ckpt)


@pytest.mark.skipif(shutil.which("mvn") is None, reason="Maven is not installed")
def test_the_example_app_builds_and_trains_with_maven(tmp_path, published):
    app = _example_copy(tmp_path)
    ckpt = tmp_path / "ckpt"
    local = os.path.join(REPO, "build", "m2-example")
    shutil.rmtree(os.path.join(local, "org", "jhooks"), ignore_errors=True)  # only our own artifact, re-resolved
    done = subprocess.run(
        [
            "mvn",
            "-B",
            "-q",
            "-Dstyle.color=never",
            f"-Dmaven.repo.local={local}",
            f"-Djhooks.repo=file://{BUILD_REPO}",
            f"-DcheckpointDir={ckpt}",
            f"-Dsteps={STEPS}",
            f"-Djavacpp.cachedir={JAVACPP_CACHE}",
            "compile",
            "exec:exec",
        ],  # fmt: skip
        cwd=app,
        capture_output=True,
        text=True,
        timeout=1200,
        env={k: v for k, v in os.environ.items() if k != "JHOOKS_CLASSPATH"},
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    _check_trained(done.stdout, ckpt)
