"""The state-file reader is one rule in both languages: the same texts are accepted with the same
values or refused (jhooks.checkpoint.state.parse_state vs org.jhooks.checkpoint.CheckpointState.parse)."""

from __future__ import annotations

import jpype
import pytest

from jhooks.checkpoint import CheckpointStateError
from jhooks.checkpoint.state import parse_state


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


TEXTS = [
    ('model_checkpoint_path: "m-2"\nall_model_checkpoint_paths: "m-1"\nall_model_checkpoint_paths: "m-2"\n', True),
    ('  model_checkpoint_path :  "a\\"b\\\\c"  \n\n', True),
    ('model_checkpoint_path: "/abs/src/model.ckpt-200"\nall_model_checkpoint_timestamps: 1700000000.5\n', True),
    ('model_checkpoint_path: "m-1"\nunknown_field: "x"\nlast_preserved_timestamp: 1.25e9\n', True),
    ("", False),
    ("garbage\n", False),
    ('all_model_checkpoint_paths: "m-1"\n', False),
    ('model_checkpoint_path: ""\n', False),
    ('model_checkpoint_path: "m-1"\nmodel_checkpoint_path m-2\n', False),
    ('model_checkpoint_path: "unterminated\n', False),
    ("model_checkpoint_path: 'single'\n", False),
]


@pytest.mark.parametrize("text,valid", TEXTS)
def test_both_languages_accept_and_refuse_the_same_state_files(text, valid):
    java = jpype.JClass("org.jhooks.checkpoint.CheckpointState")
    if not valid:
        with pytest.raises(CheckpointStateError):
            parse_state(text)
        with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")):
            java.parse(text)
        return
    latest, paths = parse_state(text)
    parsed = java.parse(text)
    assert (latest, paths) == (str(parsed.modelCheckpointPath()), [str(p) for p in parsed.allModelCheckpointPaths()])
