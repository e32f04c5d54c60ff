"""best_checkpoints.json is read the same way in both languages: every text gives the same entries
or the same refusal (jhooks.hooks.best_checkpoints_index.BestCheckpointsIndex.read vs
org.jhooks.hooks.BestCheckpointsIndex.read), and each language reads what the other writes.

Before: a step listed twice made the listener delete its own best checkpoint, NaN was refused in
Java but ranked best in Python, 1e999 was Python's OverflowError and dropped in Java, deep nesting
was a RecursionError / StackOverflowError, and a step of 5.9 was read as 5."""

from __future__ import annotations

import math

import jpype
import pytest

from jhooks.hooks.best_checkpoints_index import BestCheckpointsIndex

REPAIR = "; remove or repair it"


@pytest.fixture(scope="module", autouse=True)
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def index(*entries: str, metric: str = '"m:0"', mode: str = '"min"') -> str:
    return f'{{"metric": {metric}, "mode": {mode}, "best": [{", ".join(entries)}]}}'


def entry(step: str, value: str = "1.5", checkpoint: str | None = None) -> str:
    name = f'"model.ckpt-{step}"' if checkpoint is None else checkpoint
    return f'{{"step": {step}, "value": {value}, "checkpoint": {name}}}'


VALID = [
    (index(), []),
    (index(entry("3", "0.25"), entry("0", "-2")), [(3, 0.25), (0, -2.0)]),
    (index(entry("9223372036854775807", "1e308")), [(9223372036854775807, 1e308)]),
    (index(entry("7", "-0.0")), [(7, -0.0)]),
    (index(entry("7", "1e-400")), [(7, 0.0)]),  # underflows to 0 in both, as a double literal does
    (" \n" + index(entry("1", "12345678901234567890")) + "\n", [(1, 12345678901234567890.0)]),
]

# Each refused text with the message both languages give, written by hand.
REFUSED = [
    (index(entry("5"), entry("5", "2")), "best[1]: step 5 is listed twice (also best[0])" + REPAIR),
    (index(entry("5", "NaN")), None),  # not JSON: the message names the parser's position
    (index(entry("5", '"NaN"')), "best[0]: value is a string, not a number" + REPAIR),
    (index(entry("5", "1e999")), "best[0]: value 1e999 is not a finite number" + REPAIR),
    (index(entry("5", "-1e999")), "best[0]: value -1e999 is not a finite number" + REPAIR),
    (index(entry("5.9")), "best[0]: step 5.9 is not a global step (an integer from 0 to 9223372036854775807)" + REPAIR),
    (index(entry("5e0")), "best[0]: step 5e0 is not a global step (an integer from 0 to 9223372036854775807)" + REPAIR),
    (index(entry("-1")), "best[0]: step -1 is not a global step (an integer from 0 to 9223372036854775807)" + REPAIR),
    (
        index(entry("9223372036854775808")),
        "best[0]: step 9223372036854775808 is not a global step (an integer from 0 to 9223372036854775807)" + REPAIR,
    ),
    (
        index(entry("1" * 1000)),
        "best[0]: step " + "1" * 100 + "... is not a global step (an integer from 0 to 9223372036854775807)" + REPAIR,
    ),
    (index(entry("1" * 1001)), "has a number longer than 1000 characters at character 51" + REPAIR),
    (index(entry("5", "0." + "3" * 999)), "has a number longer than 1000 characters at character 63" + REPAIR),
    (
        index(entry("true")),
        "best[0]: step is true, not a global step (an integer from 0 to 9223372036854775807)" + REPAIR,
    ),
    (
        index('{"step": "3", "value": 1, "checkpoint": "model.ckpt-3"}'),
        "best[0]: step is a string, not a global step (an integer from 0 to 9223372036854775807)" + REPAIR,
    ),
    (
        index(entry("4", checkpoint='"../elsewhere-4"')),
        "best[0]: checkpoint '../elsewhere-4' is not 'model.ckpt-4', step 4 of this listener's basename; "
        "use another subdir",
    ),
    (index(entry("4", checkpoint="4")), "best[0]: checkpoint is a number, not a string" + REPAIR),
    (index('{"step": 1, "value": 1}'), "best[0] has no 'checkpoint'" + REPAIR),
    (
        index('{"step": 1, "value": 1, "checkpoint": "model.ckpt-1", "extra": 1}'),
        "best[0] has an unknown key 'extra'" + REPAIR,
    ),
    (
        index('{"step": 1, "step": 2, "value": 1, "checkpoint": "model.ckpt-1"}'),
        "best[0] has the key 'step' twice" + REPAIR,
    ),
    (index("3"), "best[0] is a number, not an object of step, value and checkpoint" + REPAIR),
    (index(metric='"other:0"'), "ranks 'other:0' (min), not 'm:0' (min); use another subdir"),
    (index(metric='"a\\"[[[[\\\\"'), "ranks 'a\"[[[[\\' (min), not 'm:0' (min); use another subdir"),
    (index(mode='"max"'), "ranks 'm:0' (max), not 'm:0' (min); use another subdir"),
    (index(metric="null"), "'metric' is null, not a string" + REPAIR),
    ('{"metric": "m:0", "mode": "min", "best": {}}', "'best' is an object, not an array of entries" + REPAIR),
    ('{"metric": "m:0", "mode": "min"}', "has no 'best'" + REPAIR),
    ("[1, 2]", "holds an array, not an object of metric, mode and best" + REPAIR),
    ('"text"', "holds a string, not an object of metric, mode and best" + REPAIR),
    (
        index('{"step": [[1]], "value": 1, "checkpoint": "x"}'),
        "nests deeper than an index (3 levels) at character 51" + REPAIR,
    ),
    ("[" * 100_000 + "]" * 100_000, "nests deeper than an index (3 levels) at character 3" + REPAIR),
    ('{"metric": "[[[[[[", "mode": "min", "best": []}', "ranks '[[[[[[' (min), not 'm:0' (min); use another subdir"),
    ("", None),
    ("nul", None),
    (index() + " {}", None),
    (index(entry("01")), None),
    ('{"metric": "m:\u0001", "mode": "min", "best": []}', None),
]


def java_read(path: str, metric: str = "m:0", mode: str = "min") -> list[tuple[int, float]]:
    java_path = jpype.JClass("java.nio.file.Path").of(path, [])
    entries = jpype.JClass("org.jhooks.hooks.BestCheckpointsIndex").read(java_path, metric, mode, "model.ckpt")
    return [(int(e.step()), float(e.value())) for e in entries]


@pytest.mark.parametrize("text, expected", VALID)
def test_both_languages_read_a_valid_index_to_the_same_entries(tmp_path, text, expected):
    path = tmp_path / "best_checkpoints.json"
    path.write_text(text)
    ours = BestCheckpointsIndex.read(str(path), "m:0", "min", "model.ckpt")
    assert ours == expected == java_read(str(path))
    assert [math.copysign(1, v) for _, v in ours] == [math.copysign(1, v) for _, v in java_read(str(path))]


@pytest.mark.parametrize("text, message", REFUSED)
def test_both_languages_refuse_a_bad_index_with_the_same_message(tmp_path, text, message):
    path = tmp_path / "best_checkpoints.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as python_error:
        BestCheckpointsIndex.read(str(path), "m:0", "min", "model.ckpt")
    with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")) as java_error:
        java_read(str(path))
    ours, theirs = str(python_error.value), str(java_error.value.getMessage())
    if message is None:  # the JSON grammar's own refusal: each parser words the position its way
        assert ours.startswith("is not JSON (") and ours.endswith(")" + REPAIR), ours
        assert theirs.startswith("is not JSON (") and theirs.endswith(")" + REPAIR), theirs
    else:
        assert ours == message
        assert theirs == message


@pytest.mark.parametrize(
    "raw, message",
    [
        (b'{"metric": "m:\xff", "mode": "min", "best": []}', "is not UTF-8 text"),
        (b" " * (BestCheckpointsIndex.MAX_BYTES + 1), f"is larger than {BestCheckpointsIndex.MAX_BYTES} bytes"),
    ],
)
def test_both_languages_refuse_what_is_not_an_index_before_parsing(tmp_path, raw, message):
    path = tmp_path / "best_checkpoints.json"
    path.write_bytes(raw)
    with pytest.raises(ValueError, match="^" + message):
        BestCheckpointsIndex.read(str(path), "m:0", "min", "model.ckpt")
    with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")) as java_error:
        java_read(str(path))
    assert str(java_error.value.getMessage()).startswith(message)


def test_each_language_reads_what_the_other_writes(tmp_path):
    entries = [(12, 0.1), (3, -1e-300), (9223372036854775807, 1e308), (0, 2.0)]
    ours, theirs = tmp_path / "python", tmp_path / "java"
    ours.mkdir()
    theirs.mkdir()
    BestCheckpointsIndex.write(str(ours), "m:0", "min", entries, "model.ckpt")
    java_path = jpype.JClass("java.nio.file.Path").of
    index_class = jpype.JClass("org.jhooks.hooks.BestCheckpointsIndex")
    read_by_java = index_class.read(java_path(str(ours / BestCheckpointsIndex.FILE), []), "m:0", "min", "model.ckpt")
    index_class.write(java_path(str(theirs), []), "m:0", "min", read_by_java, "model.ckpt")
    for directory in (ours, theirs):
        assert sorted(p.name for p in directory.iterdir()) == [BestCheckpointsIndex.FILE]
        path = str(directory / BestCheckpointsIndex.FILE)
        assert BestCheckpointsIndex.read(path, "m:0", "min", "model.ckpt") == entries == java_read(path)
