"""A jhooks hook handed to TensorFlow's monitored session without ``jhooks.tf.to_tf_hooks``: the
error names the hook and the fix instead of TensorFlow's bare missing-attribute error."""

from __future__ import annotations

import pytest
import tensorflow as tf

import jhooks


class LossLogger(jhooks.Hook):
    def afterSessionRun(self, runContext, runValues):
        pass


def test_tensorflow_given_a_jhooks_hook_names_to_tf_hooks():
    with tf.Graph().as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        train = tf.compat.v1.assign_add(step, 1)
        with pytest.raises(AttributeError) as e:
            with tf.compat.v1.train.MonitoredSession(hooks=[LossLogger()]) as sess:
                sess.run(train)
    assert str(e.value) == (
        f"{__name__}.LossLogger is a jhooks hook, not a TensorFlow SessionRunHook (TensorFlow looked up "
        "after_create_session): pass hooks=jhooks.tf.to_tf_hooks([...], modelInstance) to TensorFlow's "
        "monitored session"
    )


def test_other_missing_attributes_keep_pythons_message():
    with pytest.raises(AttributeError, match="'LossLogger' object has no attribute 'nope'"):
        LossLogger().nope  # noqa: B018
    assert getattr(LossLogger(), "before_run", None) is None  # validation's look-ups see no such callback
