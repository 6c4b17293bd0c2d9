"""``trellax.optim``'s transformations name their functions as optax's do (``init_fn``,
``update_fn``, ``init_empty_state``; ``init``/``update`` for ``apply_if_finite``): a printed
optimizer, or a printed Flax ``TrainState``, shows them. Golden: optax 0.2.8
(``tools/gen_golden_optim_qualnames.py``)."""

from __future__ import annotations

import json
import pathlib

import pytest

from trellax import optim

GOLDEN = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "optim_qualnames.json").read_text()
)["cases"]


@pytest.mark.parametrize("expr", sorted(GOLDEN))
def test_function_names_are_optax(expr: str) -> None:
    t = eval(expr, {"o": optim})
    got = [t.init.__qualname__, t.update.__qualname__]
    # a bound method is named after its class, which is trellax's class of the same name
    assert got == GOLDEN[expr]
