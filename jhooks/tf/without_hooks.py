"""run_without_hooks: one run of a TF monitored session that fires no hooks, with TF's recovery.

The Python driver's twin of the JVM ``org.jhooks.tf.MonitoredSession.runWithoutHooks`` (TF #11971:
TensorFlow's monitored sessions run every hook on every ``run``), for initializer and evaluation
runs in the middle of training.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jhooks.api.run_args import RunOptions
from jhooks.tf import names


def run_without_hooks(
    session: Any, fetches: Any, feeds: Mapping[str, Any] | None = None, options: RunOptions | None = None
) -> Any:
    """Runs ``fetches`` (jhooks names: ``"op:N"`` tensors, op names as targets, nests of them) with
    ``feeds`` (tensor name -> value) on the raw session of ``session`` (a TF ``MonitoredSession``,
    ``MonitoredTrainingSession``, ``SingularMonitoredSession`` or :class:`jhooks.tf.OnErrorSession`):
    no hook's ``beforeSessionRun``/``afterSessionRun`` is called.

    Recovery: the run goes through TF's ``run_step_fn``, so an ``AbortedError``/``UnavailableError``
    makes TF re-create the session (restoring the latest checkpoint, calling every hook's
    ``afterCreateSession`` again) and run it again, as a hooked run would be retried. (A plain
    ``run_step_fn`` whose step uses ``step_context.session`` fails on the retry: TF hands it the
    closed session of the first attempt; this function reads the re-created one.)

    Returns:
        numpy arrays (shape ``()`` for scalars) and None for targets, in the structure of
        ``fetches``.

    Raises:
        GraphNameError: a name not in the graph or a feed value that does not fit its tensor,
            naming the caller ``runWithoutHooks``.
        tf.errors.OutOfRangeError: the input ended (TF's ``with`` block swallows it, as for
            ``run``). Other TF errors as TF raises them.

    The JVM twin recovers the same way (docs/contract.md, "Runs without hooks"; conformance
    scenarios ``run_without_hooks_*``).
    """
    where = lambda: ("caller", "runWithoutHooks")  # noqa: E731

    current = getattr(session, "_tf_sess", None)  # TF's _MonitoredSession: the raw session now

    def step(step_context: Any) -> Any:
        # TF's _RecoverableSession.run_step_fn retries with the raw session of the first attempt,
        # closed by the recovery ("Attempted to use a closed Session."); take the current one.
        raw = current() if callable(current) else step_context.session
        tf_fetches = names.resolve_fetches(raw.graph, fetches, where)
        tf_feeds = names.resolve_feeds(raw.graph, feeds, where)
        result = raw.run(tf_fetches, feed_dict=tf_feeds, options=names.options_to_proto(options))
        return names.normalize_results(fetches, result)

    return session.run_step_fn(step)
