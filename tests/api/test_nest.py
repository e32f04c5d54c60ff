"""jhooks.api.nest: flatten order, structure rebuilding, validation, tensor names."""

import pytest

from jhooks.api import nest


def test_flatten_is_depth_first_in_list_then_dict_order():
    s = ["a:0", ("b", {"z": "c:1", "y": ["d:0"]}), {"k": "e:0"}]
    assert nest.flatten(s) == ["a:0", "b", "c:1", "d:0", "e:0"]
    assert nest.flatten(None) == []
    assert nest.flatten("x:0") == ["x:0"]


def test_pack_and_map_keep_the_structure_and_tuples():
    s = ("a:0", ["b:0", {"c": "c:0"}])
    packed = nest.pack(s, iter([1, 2, 3]))
    assert packed == (1, [2, {"c": 3}]) and type(packed) is tuple and type(packed[1]) is list
    assert nest.map_structure(s, len) == (3, [3, {"c": 3}])
    assert nest.map_structure(None, len) is None


@pytest.mark.parametrize(
    "bad,words",
    [
        (3, "got int 3"),
        (["a:0", None], "list holds None"),
        ({1: "a:0"}, "key must be a str"),
        ({"k": None}, "None under 'k'"),
        ({"s": {1.5}}, "got set"),
    ],
)
def test_validate_rejects_non_names(bad, words):
    with pytest.raises(ValueError, match=words):
        nest.validate(bad)


@pytest.mark.parametrize(
    "name,is_tensor",
    [("loss:0", True), ("scope/op:12", True), ("train", False), ("a:b", False), (":0", False), ("x:", False)],
)
def test_is_tensor_name(name, is_tensor):
    assert nest.is_tensor_name(name) is is_tensor
