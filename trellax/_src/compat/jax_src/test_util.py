"""``jax._src.test_util``: the helpers JAX's documentation imports from JAX's test utilities
(its gradient-checkpointing guide builds a mesh with ``create_mesh``), beside the derivative
checks of ``jax.test_util``. JAX's own test files get a fuller stand-in from
``tools/jax_tests/shim.py``."""

from __future__ import annotations

import math
import unittest
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.api.test_util import check_grads as check_grads
from trellax._src.api.test_util import check_jvp as check_jvp
from trellax._src.api.test_util import check_vjp as check_vjp
from trellax._src.runtime.device import devices
from trellax._src.runtime.sharding import AxisType, Mesh, make_mesh


def create_mesh(
    mesh_shape: Sequence[int],
    axis_names: Sequence[str],
    iota_order: bool = False,
    axis_types: Any = None,
) -> Mesh:
    """A mesh of ``mesh_shape`` over the first devices; ``unittest.SkipTest`` when there are
    fewer devices than it needs (as JAX's helper skips a test). ``iota_order`` lays the devices
    out by id; otherwise the mesh is ``make_mesh``'s, with ``Auto`` axes by default."""
    size = math.prod(mesh_shape)
    found = devices()
    if len(found) < size:
        raise unittest.SkipTest(f"Test requires {size} global devices and found {len(found)}.")
    if iota_order:
        ordered = sorted(found, key=lambda d: d.id)[:size]
        grid = np.empty(len(ordered), dtype=object)
        grid[:] = ordered
        return Mesh(grid.reshape(tuple(mesh_shape)), tuple(axis_names), axis_types=axis_types)
    if axis_types is None:
        axis_types = (AxisType.Auto,) * len(mesh_shape)
    return make_mesh(tuple(mesh_shape), tuple(axis_names), axis_types)
