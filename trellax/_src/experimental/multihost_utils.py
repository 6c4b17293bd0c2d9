"""``multihost_utils`` for one process: collectives across processes are identities here."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.tree.tree_util import tree_map


class ProcessFailureError(RuntimeError):
    """A process of a multi-process run failed (never raised: trellax runs in one process)."""


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """``in_tree`` as every process would receive it from process 0: its leaves as NumPy
    arrays (what JAX returns on one process)."""
    del is_source
    return tree_map(np.asarray, in_tree)


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Every process's ``in_tree`` gathered: with one process, each leaf as a NumPy array with
    a leading axis of size 1 (or unchanged when ``tiled``)."""
    return tree_map(lambda x: np.asarray(x) if tiled else np.asarray(x)[None], in_tree)


def sync_global_devices(name: str) -> None:
    """Waits for every process to reach this point: returns at once with one process."""
    del name


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Checks that ``in_tree`` is equal across processes: always true with one process."""
    del in_tree, fail_message


def reached_preemption_sync_point(step_id: int) -> bool:
    """Whether a preemption was signalled: never, here."""
    del step_id
    return False


def host_local_array_to_global_array(local_inputs: Any, global_mesh: Any, pspecs: Any) -> Any:
    """The global arrays made of each process's local data: the inputs, with one process."""
    del global_mesh, pspecs
    return local_inputs


def global_array_to_host_local_array(global_inputs: Any, global_mesh: Any, pspecs: Any) -> Any:
    """This process's part of global arrays: all of them, with one process."""
    del global_mesh, pspecs
    return global_inputs
