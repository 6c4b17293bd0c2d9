"""The batch-3 differential probe replayed on trellax (``tests/probe_batch3_cases.py``).

Some 2,000 small programs over optax's API (as ``trellax.optim``), Flax's serialization, struct,
train_state and lifted transforms, ``jax.example_libraries``, the one-device sharding names,
dlpack and the tree utilities, compared with JAX 0.10.2 / Flax 0.12.8 / optax 0.2.8's outcomes in
``tests/golden/probe_batch3.json`` (written by ``tools/gen_golden_probe_batch3.py``): values bit
for bit or within a few ulps of the dtype, dtypes, weak flags, container structure and error
classes. ``tests/probe_batch3_open.py`` lists what still differs (OPEN) and what trellax keeps on
purpose (KNOWN); the test fails when an OPEN entry starts matching, so the list only shrinks.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from probe_batch3_cases import PROGRAMS, classify, names, run
from probe_batch3_open import KNOWN, OPEN

import trellax
import trellax.flax
import trellax.optim

GOLDEN: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "probe_batch3.json").read_text()
)


@pytest.fixture(scope="module")
def env() -> dict[str, Any]:
    return names(trellax, trellax.optim, trellax.flax)


def test_golden_covers_every_program() -> None:
    assert sorted(GOLDEN) == sorted(PROGRAMS)
    assert not set(OPEN) - set(PROGRAMS)
    assert not set(KNOWN) - set(PROGRAMS)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program(name: str, env: dict[str, Any]) -> None:
    if name in KNOWN:
        pytest.skip(KNOWN[name])
    got = classify(run(PROGRAMS[name], env), GOLDEN[name])
    assert got == OPEN.get(name), (got, OPEN.get(name))
