"""The Flax/optax probe's findings replayed on trellax (``tests/flax_optax_hunt_cases.py``).

``tools/probe_flax_optax.py`` ran ~1,050 generated Flax/optax programs under JAX 0.10.2 / Flax
0.12.8 / optax 0.2.8 and under trellax; the programs here pin what differed and was fixed
(``optax.tree``/``tree_utils``, the interpolating schedules, ``nadam``/``nadamw``/``sign_sgd``/
``signum``/``adamaxw``/``apply_every`` and more, ``jax_utils.replicate``'s dtypes, the attention
heads' error class, custom ``attention_fn`` keywords and the dot_general hooks) against ``tests/golden/flax_optax_hunt.json`` from
``tools/gen_golden_flax_optax_hunt.py``: values bit for bit or within a few ulps of the dtype,
dtypes, weak flags, structure and error classes.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from flax_optax_hunt_cases import PROGRAMS, RPROP, env
from probe_batch3_cases import classify, run

import trellax
import trellax.flax
import trellax.optim

GOLDEN: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "flax_optax_hunt.json").read_text()
)


# Programs whose outputs are sums that cancel: an element is compared against its array's largest
# magnitude. mha/kwargs_fn's softmax takes float32 `exp`, which is NumPy's (1 ulp from XLA's in
# 787 of its 2,112 inputs here: docs/semantics.md, "float32 transcendental functions"); the output
# projection then cancels to -0.0069 where the heads are ~1, so that 1-ulp input difference is 81
# ulps of the small element (3.8e-8 absolute, a third of an ulp of the array's largest value).
NORMWISE = {"mha/kwargs_fn"}


@pytest.fixture(scope="module")
def names() -> dict[str, Any]:
    return env(trellax, trellax.optim, trellax.flax)


def test_golden_covers_every_program() -> None:
    assert sorted(GOLDEN) == sorted(PROGRAMS)


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - set(RPROP)))
def test_program(name: str, names: dict[str, Any]) -> None:
    assert classify(run(PROGRAMS[name], names), GOLDEN[name], normwise=name in NORMWISE) is None


@pytest.mark.parametrize("name", RPROP)
def test_rprop_is_optax_without_its_one_step_lag(name: str, names: dict[str, Any]) -> None:
    # optax 0.2.8's rprop returns the previous step's update (zeros at the first step); its
    # states are right. trellax returns the current step's update (docs/semantics.md).
    mine = run(PROGRAMS[name], names)
    ref = GOLDEN[name]
    ups_m, states_m = mine[1]
    ups_r, states_r = ref[1]
    assert classify(states_m, states_r) is None
    assert classify(["list", ups_m[1][:-1]], ["list", ups_r[1][1:]]) is None
    assert classify(ups_m[1][0], ups_r[1][0]) is not None  # optax's first update is zeros
