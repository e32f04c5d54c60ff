"""Wiring: a tf.compat.v1 graph runs; the import of jhooks stays free of tensorflow and jpype."""

import subprocess
import sys


def test_import_jhooks_loads_neither_tensorflow_nor_jpype():
    code = "import sys, jhooks; print(sorted(m for m in ('tensorflow', 'jpype') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_tf_compat_v1_graph_runs():
    import tensorflow as tf

    g = tf.Graph()
    with g.as_default():
        a = tf.constant([1.5, 2.0, 3.0])
        total = tf.reduce_sum(a) * 2.0
        with tf.compat.v1.Session(graph=g) as sess:
            assert sess.run(total) == 13.0


def test_cli_help_lists_subcommands():
    out = subprocess.run([sys.executable, "-m", "jhooks", "--help"], check=True, capture_output=True, text=True).stdout
    assert "info" in out
