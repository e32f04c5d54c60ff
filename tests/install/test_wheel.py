"""The wheels as a new user installs them: jhooks (the library), jhooks-conformance and jhooks-demo,
built by pip from this checkout, installed into a new virtual environment outside the checkout, with
HOME an empty directory and neither Gradle nor Maven on PATH (only the JDK's ``java``). First the
library alone without the ``tf`` extra (the hook API; a JVM session refused with what to install;
the other distributions' commands refused with what to install), then with it and the two other
wheels: ``jhooks info``, a Java standard hook in a Python session, the demo (few steps), the example
app through the launcher, a few conformance scenarios under every combination, and the Python
examples of docs/conformance.md. Dependencies come from PyPI (pip's downloads are cached in
build/pip-cache between runs); jhooks only from the wheels.

What each wheel holds is checked first: the library's has no conformance, test support or demo
(neither in Python nor in its jar), the other two hold their package and their jar.
"""

import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile

import pytest

from jhooks.api.version import VERSION

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DISTRIBUTIONS = {
    "jhooks": REPO,
    **{d: os.path.join(REPO, "distributions", d) for d in ("jhooks-conformance", "jhooks-demo")},
}
# what only the other distributions may ship
NOT_LIBRARY_PYTHON = ("jhooks/conformance/", "jhooks/testing/", "jhooks/demo/")
NOT_LIBRARY_JAVA = tuple(f"org/jhooks/{p}/" for p in ("conformance", "testing", "demo", "examples", "bench"))
MAX_WHEEL_BYTES = 30 * 1024 * 1024
CONFORMANCE_SCENARIOS = ["cross_language_mixed_order", "checkpoint_saver_every_2_steps", "end_of_input"]
PASSED_THROUGH = ("PIP_", "SSL_CERT_", "REQUESTS_CA_BUNDLE", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    """The three wheels, by distribution name."""
    out = tmp_path_factory.mktemp("dist")
    built = {}
    for name, project in DISTRIBUTIONS.items():
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", project, "--no-deps", "-q", "-w", str(out)], check=True, cwd=REPO
        )
        (built[name],) = glob.glob(str(out / f"{name.replace('-', '_')}-{VERSION}-*.whl"))
    return built


@pytest.fixture(scope="module")
def wheel(wheels):
    return wheels["jhooks"]


def _jar_names(wheel, jar):
    """The entries of the jar ``jar`` inside ``wheel``."""
    with zipfile.ZipFile(wheel) as z:
        return zipfile.ZipFile(io.BytesIO(z.read(jar))).namelist()


def test_the_wheel_carries_the_java_runtime_but_not_tensorflows_and_the_licences(wheel, capsys):
    with capsys.disabled():  # shown in CI's log, not only on failure
        print(f"\nwheel: {os.path.basename(wheel)}, {os.path.getsize(wheel) / 2**20:.1f} MiB (limit 30 MiB)")
    assert os.path.basename(wheel) == f"jhooks-{VERSION}-py3-none-any.whl"
    assert os.path.getsize(wheel) <= MAX_WHEEL_BYTES
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        listed = z.read("jhooks/_jars/classpath.txt").decode().split()
        notice = z.read(f"jhooks-{VERSION}.dist-info/licenses/NOTICE").decode()
        with z.open("jhooks/_jars/jhooks-tensorflow-jni-1.1.0-linux-x86_64.jar") as jni_file:
            jni = zipfile.ZipFile(jni_file)
            jni_names = sorted(n for n in jni.namelist() if not n.endswith("/"))
    assert listed[0] == f"jhooks-{VERSION}.jar"
    assert "jhooks/py.typed" in names  # PEP 561: type checkers use the package's annotations
    assert sorted(n for n in names if n.startswith("jhooks/_jars/")) == sorted(
        ["jhooks/_jars/classpath.txt"] + [f"jhooks/_jars/{j}" for j in listed]
    )
    for jar in ("tensorflow-core-api-1.1.0.jar", "tensorflow-core-native-1.1.0.jar", "javacpp-1.5.11.jar"):
        assert jar in listed
    assert not any("libtensorflow_cc" in n or n.endswith("-linux-x86_64.jar") and "jni" not in n for n in names)
    assert jni_names == [
        "org/tensorflow/internal/c_api/linux-x86_64/LICENSE",
        "org/tensorflow/internal/c_api/linux-x86_64/libjnitensorflow.so",
    ]
    licences = {n.split("/licenses/", 1)[1] for n in names if "/licenses/" in n}
    assert licences == {"LICENSE", "NOTICE", "licenses/protobuf-BSD-3-Clause.txt"}
    assert [j for j in listed[1:] if j not in notice] == []  # NOTICE names every bundled third-party jar


def test_the_library_wheel_and_its_jar_hold_only_the_library(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(f"jhooks-{VERSION}.dist-info/METADATA").decode()
    assert "jhooks/cli/main.py" in names and "jhooks/bridge/process/jvm.py" in names
    assert [n for n in names if n.startswith(NOT_LIBRARY_PYTHON)] == []
    sources = glob.glob(os.path.join(REPO, "jhooks", "**", "*.py"), recursive=True)
    library = sorted(n for n in (os.path.relpath(p, REPO) for p in sources) if not n.startswith(NOT_LIBRARY_PYTHON))
    assert sorted(n for n in names if n.endswith(".py")) == library  # none left over from an earlier build
    jar = _jar_names(wheel, f"jhooks/_jars/jhooks-{VERSION}.jar")
    assert "org/jhooks/Hook.class" in jar and "org/jhooks/tf/MonitoredSession.class" in jar
    assert [n for n in jar if n.startswith(NOT_LIBRARY_JAVA) or n.endswith(".json")] == []
    assert "License-Expression: Apache-2.0 AND BSD-3-Clause\n" in metadata
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert not [r for r in requires if "junitparser" in r or "jsonschema" in r], requires  # jhooks-conformance's


@pytest.mark.parametrize(
    "name, package, jar_classes",
    [
        (
            "jhooks-conformance",
            ("jhooks/conformance/", "jhooks/testing/"),
            ["org/jhooks/conformance/ConformanceRunner.class", "org/jhooks/testing/FaultInjectingSessionCreator.class"],
        ),
        (
            "jhooks-demo",
            ("jhooks/demo/",),
            ["org/jhooks/demo/JvmTrainingDemo.class", "org/jhooks/examples/TrainLinearModel.class"],
        ),
    ],
)
def test_the_other_wheels_hold_their_package_and_their_jar(wheels, name, package, jar_classes):
    wheel = wheels[name]
    dist_info = f"{name.replace('-', '_')}-{VERSION}.dist-info/"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(dist_info + "METADATA").decode()
        entry_points = z.read(dist_info + "entry_points.txt").decode()
    assert [n for n in names if not n.startswith((*package, dist_info))] == []  # no jhooks/__init__.py
    sources = [p for d in package for p in glob.glob(os.path.join(REPO, d, "**", "*.py"), recursive=True)]
    assert sorted(n for n in names if n.endswith(".py")) == sorted(os.path.relpath(p, REPO) for p in sources)
    jar = f"{package[0]}_jars/{name}-{VERSION}.jar"
    assert jar in names
    entries = _jar_names(wheel, jar)
    assert set(jar_classes) <= set(entries)
    assert [n for n in entries if n.endswith(".class") and not n.startswith(NOT_LIBRARY_JAVA)] == []
    assert re.search(rf"^Requires-Dist: jhooks(\[tf\])?=={re.escape(VERSION)}$", metadata, re.M), metadata
    assert "[jhooks.commands]" in entry_points and "[jhooks.classpath]" in entry_points
    if name == "jhooks-conformance":
        assert "scenario-index.json" in entries  # at the resource root, where the JVM runner reads it
        assert "jhooks/conformance/data/scenario-index.json" in names
    else:
        assert "jhooks/demo/data/wdbc.csv" in names


def _user_env(root):
    """A new user's environment: empty HOME, the venv and the JDK's java on PATH, nothing of ours."""
    home = root / "home"
    home.mkdir()
    jdk_bin = root / "jdk-bin"
    jdk_bin.mkdir()
    os.symlink(os.path.realpath(shutil.which("java")), jdk_bin / "java")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k.startswith(PASSED_THROUGH)}
    env.update(
        HOME=str(home),
        PATH=f"{venv / 'bin'}{os.pathsep}{jdk_bin}",
        PIP_CACHE_DIR=os.path.join(REPO, "build", "pip-cache"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        TF_CPP_MIN_LOG_LEVEL="2",
        LANG="C.UTF-8",
    )
    assert shutil.which("gradle", path=env["PATH"]) is None and shutil.which("mvn", path=env["PATH"]) is None
    return env, venv / "bin" / "python"


class User:
    """Runs commands as the new user, in a work directory outside the checkout."""

    def __init__(self, root):
        self.env, self.python = _user_env(root)
        self.work = root / "work"
        self.work.mkdir()
        self.home = root / "home"

    def run(self, *args, timeout=900, check=True):
        done = subprocess.run(
            [str(self.python), *args], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if check:
            assert done.returncode == 0, f"{args}: {done.stdout[-3000:]}\n{done.stderr[-5000:]}"
        return done

    def pip_install(self, requirement):
        self.run("-m", "pip", "install", "-q", requirement, timeout=1800)


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    root = tmp_path_factory.mktemp("new-user")
    assert not str(root).startswith(REPO)
    return User(root)


@pytest.fixture(scope="module")
def without_tf(user, wheel):
    user.pip_install(wheel)
    return user


@pytest.fixture(scope="module")
def with_tf(without_tf, wheels):
    without_tf.pip_install(f"{wheels['jhooks']}[tf]")
    without_tf.run("-m", "pip", "install", "-q", wheels["jhooks-conformance"], wheels["jhooks-demo"], timeout=1800)
    return without_tf


def test_without_the_other_wheels_their_commands_say_what_to_install(without_tf):
    for command, distribution in (("conformance", "jhooks-conformance"), ("demo", "jhooks-demo")):
        done = without_tf.run("-m", "jhooks", command, "--scenario", "x", check=False)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == (
            f"python -m jhooks {command}: the command {command!r} is in the distribution {distribution}, "
            f"which is not installed here: pip install {distribution}\n"
        )
    listing = " ".join(without_tf.run("-m", "jhooks", "--help").stdout.split())  # argparse wraps the epilog
    assert (
        "not installed here: cluster-demo (pip install jhooks-demo), conformance (pip install jhooks-conformance), "
        "demo (pip install jhooks-demo)"
    ) in listing
    missing = without_tf.run("-c", "import jhooks.conformance", check=False)
    assert "ModuleNotFoundError: No module named 'jhooks.conformance'" in missing.stderr


def test_a_distribution_installed_in_another_path_entry_extends_the_package(without_tf, wheels, tmp_path):
    """pip install --target (or a user site): jhooks-conformance outside the library's directory;
    jhooks/__init__.py's extend_path finds its part of the package, importlib.metadata its command."""
    target = tmp_path / "elsewhere"
    without_tf.run("-m", "pip", "install", "-q", "--no-deps", "--target", str(target), wheels["jhooks-conformance"])
    assert not (target / "jhooks" / "__init__.py").exists()
    env = dict(without_tf.env, PYTHONPATH=str(target))
    code = "import jhooks, jhooks.conformance.combos as c; print(jhooks.__version__, len(c.ALL), c.__file__)"
    done = subprocess.run(
        [str(without_tf.python), "-c", code], cwd=without_tf.work, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{VERSION} 6 {target / 'jhooks' / 'conformance' / 'combos.py'}\n"
    listing = subprocess.run(
        [str(without_tf.python), "-m", "jhooks", "conformance", "--help"],
        cwd=without_tf.work,
        env=env,
        capture_output=True,
        text=True,
    )
    assert listing.returncode == 0 and "--hook-factory" in listing.stdout, listing.stderr


def test_without_the_tf_extra_the_api_works_and_a_jvm_session_says_what_to_install(without_tf, tmp_path):
    user = without_tf
    assert user.run("-m", "jhooks", "--version").stdout == f"jhooks {VERSION}\n"
    code = "import sys, jhooks; print(jhooks.__version__, 'tensorflow' in sys.modules, 'jpype' in sys.modules)"
    assert user.run("-c", code).stdout == f"{VERSION} False False\n"
    info = user.run("-m", "jhooks", "info").stdout
    assert "tensorflow: not installed\n" in info
    what_to_install = (
        "no TensorFlow runtime is installed for the JVM: no Python TensorFlow, and tensorflow-java 1.1.0's native jar "
        "is not on the classpath. Install tensorflow-cpu==2.18.0 (pip install 'jhooks[tf]'), or add "
        "org.tensorflow:tensorflow-core-native:1.1.0:linux-x86_64's jar to JHOOKS_CLASSPATH with the jhooks jars"
    )
    assert f"jvm: Java hooks only, no JVM sessions: {what_to_install}\n" in info
    session = user.run("-m", "jhooks", "java", "org.jhooks.examples.TrainLinearModel", "--", "ckpt", "3", check=False)
    assert session.returncode == 2 and session.stderr == f"python -m jhooks java: {what_to_install}\n"
    hook = textwrap.dedent("""
        import jpype
        from jhooks.bridge import JavaHook
        from jhooks.bridge.process import jvm
        jvm.start()  # before jpype.JLong
        hook = JavaHook("org.jhooks.hooks.StopAtStepHook", None, jpype.JLong(3))
        print(jvm.mode(), hook.describe())
    """)
    assert user.run("-c", hook).stdout == "hooks-only org.jhooks.hooks.StopAtStepHook, Java\n"


def test_with_the_tf_extra_info_shows_the_bundled_jars_and_the_shared_runtime(with_tf):
    info = with_tf.run("-m", "jhooks", "info").stdout
    assert f"jhooks-conformance: {VERSION}\njhooks-demo: {VERSION}\n" in info
    assert "tensorflow: 2.18.0\n" in info
    assert "jvm: JVM sessions and Java hooks, sharing Python TensorFlow's runtime" in info
    jars = [line.split(": ", 1)[1] for line in info.splitlines() if line.startswith("classpath: ")]
    library, others = jars[:-2], jars[-2:]
    assert library and all("/site-packages/jhooks/_jars/" in j for j in library), jars
    assert [os.path.relpath(j, os.path.dirname(library[0])) for j in others] == [
        f"../conformance/_jars/jhooks-conformance-{VERSION}.jar",
        f"../demo/_jars/jhooks-demo-{VERSION}.jar",
    ]


def test_a_java_standard_hook_runs_in_a_python_session(with_tf):
    script = textwrap.dedent("""
        import jpype
        import tensorflow as tf
        import jhooks
        from jhooks.bridge import JavaHook
        from jhooks.bridge.process import jvm
        from jhooks.tf import to_tf_hooks

        jvm.start()
        with tf.Graph().as_default():
            step = tf.compat.v1.train.get_or_create_global_step()
            w = tf.compat.v1.get_variable("w", initializer=3.0)
            loss = tf.identity(w * w, name="loss")
            train = tf.group(tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss),
                             tf.compat.v1.assign_add(step, 1), name="train")
            model = jhooks.ModelInstance.of(loss="loss:0", trainOp="train", globalStep="global_step:0")
            hooks = to_tf_hooks([JavaHook("org.jhooks.hooks.StopAtStepHook", None, jpype.JLong(7))], model)
            runs = 0
            with tf.compat.v1.train.MonitoredTrainingSession(hooks=hooks) as s:
                while not s.should_stop():
                    s.run("train")
                    runs += 1
        print(jvm.mode(), runs)
    """)
    assert with_tf.run("-c", script).stdout.endswith("shared-runtime 7\n")
    # The JavaCPP cache holds the JNI glue; TensorFlow's libraries there are links to the Python wheel's.
    cache = with_tf.home / ".cache" / "jhooks" / "javacpp-cache-shared"
    files = {f: os.path.join(d, f) for d, _, names in os.walk(cache) for f in names}
    assert os.lstat(files["libjnitensorflow.so"]).st_size > 500_000
    for lib in ("libtensorflow_cc.so.2", "libtensorflow_framework.so.2"):
        assert os.path.realpath(files[lib]).endswith(f"/site-packages/tensorflow/{lib}")
    assert sum(os.lstat(f).st_size for f in files.values()) < 5 * 2**20


def test_the_demo_runs_from_the_wheel(with_tf):
    with_tf.run(
        "-m", "jhooks", "demo", "--steps-jvm", "20", "--steps-python", "20", "--save-steps", "10",
        "--out", "demo", "--json", "demo.json", "--no-progress",
    )  # fmt: skip
    report = json.loads((with_tf.work / "demo.json").read_text())
    assert report["cross_restore_ok"] is True
    assert report["jvm"]["last_step"] == 20 and report["python"]["last_step"] == 40


def test_the_example_app_runs_under_the_launcher_from_the_wheels(with_tf):
    """org.jhooks.examples.TrainLinearModel is in jhooks-demo's jar, which the launcher adds
    (entry point jhooks.classpath) to the library's classpath: README's command as written."""
    done = with_tf.run(
        "-m", "jhooks", "java", "org.jhooks.examples.TrainLinearModel", "--", "example-ckpt", "4", "gd", "2"
    )
    assert (with_tf.work / "example-ckpt" / "model.ckpt-4.index").exists(), done.stdout + done.stderr


def _python_blocks(document):
    with open(os.path.join(REPO, "docs", document), encoding="utf-8") as f:
        return re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)


@pytest.mark.parametrize("index", range(len(_python_blocks("conformance.md"))))
def test_the_python_examples_of_the_conformance_docs_run_from_the_wheels(with_tf, index):
    """As tests/docs runs them in the checkout: the block as written, in a fresh interpreter."""
    with_tf.run("-c", _python_blocks("conformance.md")[index])


def test_conformance_scenarios_pass_from_the_wheel(with_tf):
    args = [a for s in CONFORMANCE_SCENARIOS for a in ("--scenario", s)]
    out = with_tf.run("-m", "jhooks", "conformance", *args, "--json", "conformance.json").stdout
    results = json.loads((with_tf.work / "conformance.json").read_text())["results"]
    assert {r["outcome"] for r in results} <= {"passed", "skipped"}, out
    assert sum(r["outcome"] == "passed" for r in results) >= 2 * len(CONFORMANCE_SCENARIOS), out
