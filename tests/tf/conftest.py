import pytest
import tensorflow as tf


@pytest.fixture
def graph():
    """Each test builds in its own tf.Graph (graph mode even though eager is on globally)."""
    g = tf.Graph()
    with g.as_default():
        yield g
