"""Python's hook_name and Java's org.jhooks.HookNames name hooks identically (docs/contract.md,
"Names"): the class alone or ``hook #i (class)``; a Described hook ``hook (label)`` /
``hook #i (label)``; and so do the bridge wrappers in both directions."""

import jpype

import jhooks
from jhooks.api.hook import Described, hook_name
from jhooks.bridge import JavaHook, as_java_hook


class Labelled(jhooks.Hook, Described):
    def describe(self):
        return "mymodule.MyHook, Python"


class Plain(jhooks.Hook):
    pass


def HookNames():
    return jpype.JClass("org.jhooks.HookNames")


def test_a_described_hook_gets_the_same_name_in_both_languages():
    java_described = jpype.JProxy("org.jhooks.Described", dict(describe=lambda: "mymodule.MyHook, Python"))
    for position in (None, 1, 7):
        py = hook_name(Labelled(), position)
        java = HookNames().name(java_described) if position is None else HookNames().name(java_described, position)
        assert py == str(java)
    assert hook_name(Labelled()) == "hook (mymodule.MyHook, Python)"


def test_a_plain_hook_is_its_class_or_its_class_at_a_position_in_both_languages():
    java_hook = jpype.JClass("org.jhooks.bridgetest.RecordingHook")("J")
    assert str(HookNames().name(java_hook)) == "org.jhooks.bridgetest.RecordingHook"
    assert str(HookNames().name(java_hook, 2)) == "hook #2 (org.jhooks.bridgetest.RecordingHook)"
    assert hook_name(Plain()) == f"{__name__}.Plain"
    assert hook_name(Plain(), 2) == f"hook #2 ({__name__}.Plain)"


def test_bridge_wrappers_are_named_by_the_hook_they_stand_for():
    assert str(HookNames().name(as_java_hook(Plain()), 3)) == f"hook #3 ({__name__}.Plain, Python)"
    java = JavaHook(jpype.JClass("org.jhooks.bridgetest.RecordingHook")("J"))
    assert hook_name(java, 3) == "hook #3 (org.jhooks.bridgetest.RecordingHook, Java)"
    assert hook_name(java) == f"hook ({HookNames().name(java.java)}, Java)"
