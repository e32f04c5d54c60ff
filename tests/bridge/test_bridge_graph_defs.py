"""Session.graphDef() and metaGraphDef() cross the bridge both ways (serialized protos as bytes /
byte[]), and so does their absence (NotImplementedError <-> UnsupportedOperationException), so the
checkpoint savers of one language write the graph of the other language's session."""

import jpype
import pytest
import tensorflow as tf

from jhooks.bridge.hooks.sessions import JavaSession, java_session


class NoGraph:
    def run(self, fetches, feeds=None, options=None):
        return None

    def globalStepTensorName(self):
        return "global_step:0"


class WithGraph(NoGraph):
    def __init__(self, graph):
        self.graph = graph

    def graphDef(self):
        return self.graph.as_graph_def().SerializeToString()

    def metaGraphDef(self):
        return tf.compat.v1.MetaGraphDef(graph_def=self.graph.as_graph_def()).SerializeToString()


class Refusing(NoGraph):
    def graphDef(self):
        raise NotImplementedError("Refusing has no graph")

    metaGraphDef = graphDef


def a_graph():
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.train.get_or_create_global_step()
        tf.constant(1.0, name="one")
    return g


def test_the_graph_and_the_meta_graph_cross_both_ways():
    g = a_graph()
    java = java_session(WithGraph(g))
    graph = tf.compat.v1.GraphDef.FromString(bytes(java.graphDef()))
    assert {"global_step", "one"} <= {n.name for n in graph.node}
    meta = tf.compat.v1.MetaGraphDef.FromString(bytes(java.metaGraphDef()))
    assert meta.graph_def == graph
    back = JavaSession(java)  # unwrapped to the Java proxy and viewed again from Python
    assert tf.compat.v1.GraphDef.FromString(back.graphDef()) == graph
    assert tf.compat.v1.MetaGraphDef.FromString(back.metaGraphDef()).graph_def == graph


@pytest.mark.parametrize("view", [NoGraph, Refusing])
def test_a_view_without_a_graph_is_unsupported_in_java_and_not_implemented_in_python(view):
    unsupported = jpype.JClass("java.lang.UnsupportedOperationException")
    for method in ("graphDef", "metaGraphDef"):
        with pytest.raises(unsupported, match=view.__name__):
            getattr(java_session(view()), method)()
        proxy = jpype.JObject(jpype.JProxy("org.jhooks.Session", inst=view(), convert=True), "org.jhooks.Session")
        with pytest.raises(NotImplementedError, match="has no graph"):  # Java's default method
            getattr(JavaSession(proxy), method)()


def test_the_jvm_drivers_view_gives_its_graph_and_tensorflow_javas_saver_def(tmp_path):
    graph = jpype.JClass("org.tensorflow.Graph")()
    ops = jpype.JClass("org.tensorflow.op.Ops").create(graph)
    ops.withName("v").variable(ops.constant(jpype.JFloat(1.0)))
    raw = jpype.JClass("org.tensorflow.Session")(graph)
    view = JavaSession(jpype.JClass("org.jhooks.tf.TfSession")(raw, graph))
    try:
        assert "v" in {n.name for n in tf.compat.v1.GraphDef.FromString(view.graphDef()).node}
        assert not tf.compat.v1.MetaGraphDef.FromString(view.metaGraphDef()).HasField("saver_def")
        raw.initialize()
        view.save(str(tmp_path / "model.ckpt-0"))  # builds tensorflow-java's saver
        meta = tf.compat.v1.MetaGraphDef.FromString(view.metaGraphDef())
        assert meta.saver_def.restore_op_name == "save/restore_all"
        assert meta.meta_info_def.tensorflow_version == tf.__version__
    finally:
        raw.close()
        graph.close()


def test_the_python_drivers_view_gives_its_meta_graph_outside_a_graph_context_too():
    """A Java hook may ask from a thread where TF 2 executes eagerly (no default graph)."""
    from jhooks.tf import TfSessionView

    g = a_graph()
    raw = tf.compat.v1.Session(graph=g)  # not entered: no default graph here
    try:
        view = TfSessionView(raw)
        assert tf.executing_eagerly()
        meta = tf.compat.v1.MetaGraphDef.FromString(view.metaGraphDef())
        assert {"global_step", "one"} <= {n.name for n in meta.graph_def.node}
        assert tf.compat.v1.GraphDef.FromString(view.graphDef()) == meta.graph_def
    finally:
        raw.close()
