"""``mesh_utils``: device meshes over trellax's one CPU device."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.runtime.device import devices as all_devices


def create_device_mesh(
    mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    contiguous_submeshes: bool = False,
    allow_split_physical_axes: bool = False,
) -> np.ndarray[Any, Any]:
    """The devices as an object array of shape ``mesh_shape`` (whose product must equal their
    number: 1 here, unless ``devices`` says otherwise)."""
    del contiguous_submeshes, allow_split_physical_axes
    devs = list(all_devices() if devices is None else devices)
    if math.prod(mesh_shape) != len(devs):
        raise ValueError(
            f"Number of devices {len(devs)} must equal the product of mesh_shape "
            f"{tuple(mesh_shape)}"
        )
    grid = np.empty(len(devs), dtype=object)
    grid[:] = devs
    return grid.reshape(tuple(mesh_shape))


def create_hybrid_device_mesh(
    mesh_shape: Sequence[int],
    dcn_mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    process_is_granule: bool = False,
    should_sort_granules_by_key: bool = True,
    allow_split_physical_axes: bool = False,
) -> np.ndarray[Any, Any]:
    """A mesh whose axis ``i`` has ``mesh_shape[i] * dcn_mesh_shape[i]`` devices."""
    del process_is_granule, should_sort_granules_by_key, allow_split_physical_axes
    if len(mesh_shape) != len(dcn_mesh_shape):
        raise ValueError(
            f"mesh_shape {tuple(mesh_shape)} and dcn_mesh_shape {tuple(dcn_mesh_shape)} must "
            "have the same length"
        )
    shape = [a * b for a, b in zip(mesh_shape, dcn_mesh_shape, strict=True)]
    return create_device_mesh(shape, devices)
