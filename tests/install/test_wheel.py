"""The wheel as a new user installs it: built by pip from this checkout, installed into a new virtual
environment outside the checkout, with HOME an empty directory and neither Gradle nor Maven on PATH
(only the JDK's ``java``). First without the ``tf`` extra (the hook API, and a JVM session refused
with what to install), then with it: ``jhooks info``, a Java standard hook in a Python session, the
demo (few steps) and a few conformance scenarios under every combination. Dependencies come from
PyPI (pip's downloads are cached in build/pip-cache between runs); jhooks only from the wheel.
"""

import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_WHEEL_BYTES = 30 * 1024 * 1024
CONFORMANCE_SCENARIOS = ["cross_language_mixed_order", "checkpoint_saver_every_2_steps", "end_of_input"]
PASSED_THROUGH = ("PIP_", "SSL_CERT_", "REQUESTS_CA_BUNDLE", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", REPO, "--no-deps", "-q", "-w", str(out)], check=True, cwd=REPO
    )
    (path,) = glob.glob(str(out / "jhooks-*.whl"))
    return path


def test_the_wheel_carries_the_java_runtime_but_not_tensorflows_and_the_licences(wheel, capsys):
    from jhooks.api.version import VERSION

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
def with_tf(without_tf, wheel):
    without_tf.pip_install(f"{wheel}[tf]")
    return without_tf


def test_without_the_tf_extra_the_api_works_and_a_jvm_session_says_what_to_install(without_tf, tmp_path):
    from jhooks.api.version import VERSION

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
    assert "tensorflow: 2.18.0\n" in info
    assert "jvm: JVM sessions and Java hooks, sharing Python TensorFlow's runtime" in info
    jars = [line.split(": ", 1)[1] for line in info.splitlines() if line.startswith("classpath: ")]
    assert jars and all("/site-packages/jhooks/_jars/" in j for j in jars), jars


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


def test_conformance_scenarios_pass_from_the_wheel(with_tf):
    args = [a for s in CONFORMANCE_SCENARIOS for a in ("--scenario", s)]
    out = with_tf.run("-m", "jhooks", "conformance", *args, "--json", "conformance.json").stdout
    results = json.loads((with_tf.work / "conformance.json").read_text())["results"]
    assert {r["outcome"] for r in results} <= {"passed", "skipped"}, out
    assert sum(r["outcome"] == "passed" for r in results) >= 2 * len(CONFORMANCE_SCENARIOS), out
