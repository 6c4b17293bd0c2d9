"""``map_coordinates`` at coordinates whose int32 index saturates or wraps, against JAX 0.10.2
(golden ``tests/golden/map_coordinates_edges.json``). ``mirror`` and ``reflect`` fold the index
by JAX's triangular wave in int32 arithmetic, so an infinite coordinate (saturated to 2**31 - 1,
then ``2i + 1`` wraps) lands on the element JAX's does (element 0 of 5 in reflect mode, where the
exact fold gave element 2)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
from map_coordinates_edge_cases import outcomes

import trellax.numpy as tnp
from trellax.scipy import ndimage

GOLDEN = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "map_coordinates_edges.json").read_text()
)


def test_saturating_coordinates_as_jax() -> None:
    got = outcomes(tnp, ndimage)
    assert set(got) == set(GOLDEN["cases"])
    for key, want in GOLDEN["cases"].items():
        np.testing.assert_array_equal(got[key], want, err_msg=key)
