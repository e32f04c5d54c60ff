"""CheckpointState is one value object in both languages: the same texts are accepted with the same
values or refused (jhooks.checkpoint.CheckpointState.parse vs org.jhooks.checkpoint.CheckpointState.
parse), and each language writes the text the other reads back equal; graph.pbtxt is written alike."""

from __future__ import annotations

import jpype
import pytest

from jhooks.checkpoint import CheckpointState


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


TEXTS = [
    ('model_checkpoint_path: "m-2"\nall_model_checkpoint_paths: "m-1"\nall_model_checkpoint_paths: "m-2"\n', True),
    ('  model_checkpoint_path :  "a\\"b\\\\c"  \n\n', True),
    ('model_checkpoint_path: "/abs/src/model.ckpt-200"\nall_model_checkpoint_timestamps: 1700000000.5\n', True),
    ('model_checkpoint_path: "m-1"\nunknown_field: "x"\nlast_preserved_timestamp: 1.25e9\n', True),
    ('model_checkpoint_path: "line\\nbreak"\nall_model_checkpoint_paths: "tab\\there"\n', True),
    ("", False),
    ("garbage\n", False),
    ('all_model_checkpoint_paths: "m-1"\n', False),
    ('model_checkpoint_path: ""\n', False),
    ('model_checkpoint_path: "m-1"\nmodel_checkpoint_path m-2\n', False),
    ('model_checkpoint_path: "unterminated\n', False),
    ("model_checkpoint_path: 'single'\n", False),
]


def java_state():
    return jpype.JClass("org.jhooks.checkpoint.CheckpointState")


@pytest.mark.parametrize("text,valid", TEXTS)
def test_both_languages_accept_and_refuse_the_same_state_files(text, valid):
    if not valid:
        with pytest.raises(ValueError) as python_error:
            CheckpointState.parse(text)
        with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")) as java_error:
            java_state().parse(text)
        assert str(python_error.value).split(":")[0] == str(java_error.value.getMessage()).split(":")[0]
        return
    ours = CheckpointState.parse(text)
    theirs = java_state().parse(text)
    assert ours.modelCheckpointPath == str(theirs.modelCheckpointPath())
    assert list(ours.allModelCheckpointPaths) == [str(p) for p in theirs.allModelCheckpointPaths()]


@pytest.mark.parametrize("text", [t for t, valid in TEXTS if valid])
def test_each_language_reads_back_what_the_other_writes(text):
    ours = CheckpointState.parse(text)
    theirs = java_state().parse(text)
    assert ours.toText() == str(theirs.toText())
    assert CheckpointState.parse(str(theirs.toText())) == ours
    assert java_state().parse(ours.toText()).equals(theirs)


def test_the_value_objects_have_the_same_rules():
    state = CheckpointState("m-2", ["m-1", "m-2"])
    assert state == CheckpointState("m-2", ("m-1", "m-2")) and hash(state) == hash(
        CheckpointState("m-2", ["m-1", "m-2"])
    )
    assert state.allModelCheckpointPaths == ("m-1", "m-2")
    with pytest.raises(ValueError, match="needs a model_checkpoint_path"):
        CheckpointState("", [])
    with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException"), match="needs a model_checkpoint_path"):
        java_state()("", jpype.JClass("java.util.List").of())


def test_both_languages_write_graph_pbtxt_as_tensorflows_write_graph(tmp_path):
    """jhooks.checkpoint.files.write_graph and org.jhooks.checkpoint.Checkpoints.writeGraph write the
    text format TF's tf.io.write_graph(as_text=True) writes: each parses back to the same GraphDef;
    the Python text is TF's own text; the graph-file temporaries of a killed write are removed by
    both languages' clean-up of stale temporaries, graph.pbtxt itself stays."""
    import os

    import tensorflow as tf
    from google.protobuf import text_format

    from jhooks.checkpoint.files import clean_stale_temporaries, write_graph

    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.train.get_or_create_global_step()
        tf.constant([0.01, 1e-30, float("nan")], name="floats")
        tf.constant(["a\nb", "\xe9"], name="strings")
    graph = g.as_graph_def(add_shapes=True)
    tf.io.write_graph(graph, str(tmp_path / "tf"), "graph.pbtxt", as_text=True)
    assert write_graph(str(tmp_path / "python"), graph.SerializeToString()) == str(tmp_path / "python" / "graph.pbtxt")
    path = jpype.JClass("java.nio.file.Path").of(str(tmp_path / "java"), [])
    jpype.JClass("org.jhooks.checkpoint.Checkpoints").writeGraph(path, graph.SerializeToString())
    texts = {who: (tmp_path / who / "graph.pbtxt").read_text(encoding="utf-8") for who in ("tf", "python", "java")}
    assert texts["python"] == texts["tf"]
    for who, text in texts.items():
        parsed = text_format.Parse(text, tf.compat.v1.GraphDef())
        assert str(parsed) == str(graph), who  # str: NaN != NaN in proto equality
        assert os.listdir(tmp_path / who) == ["graph.pbtxt"], who
    for who in ("python", "java"):
        (tmp_path / who / "graph.pbtxt.tmpkilled").write_text("half")
    assert clean_stale_temporaries(str(tmp_path / "python"), "model.ckpt") == [
        str(tmp_path / "python" / "graph.pbtxt.tmpkilled")
    ]
    removed = jpype.JClass("org.jhooks.checkpoint.Checkpoints").cleanStaleTemporaries(path, "model.ckpt")
    assert [str(p) for p in removed] == [str(tmp_path / "java" / "graph.pbtxt.tmpkilled")]
    for who in ("python", "java"):
        assert os.listdir(tmp_path / who) == ["graph.pbtxt"], who
