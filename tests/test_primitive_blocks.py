"""One block per primitive (issue 21): every primitive's rules sit beside its definition, its
kernel is attached to the primitive object, "elementwise" has one definition that the batching,
fusion and memo code agree on, and the numpy layer reaches concrete arrays only through
``trellax._src.eager``."""

from __future__ import annotations

import ast
import pathlib

import pytest

import trellax.numpy
import trellax.random
import trellax.scipy.special
from trellax._src.backend import numpy as backend
from trellax._src.core import core

SRC = pathlib.Path(trellax.numpy.__file__).resolve().parent.parent / "_src"
PRIMS = core.primitives()

#: Elementwise primitives whose batch rule is their own, not ``elementwise_rule``.
OWN_BATCH_RULE = {
    "clamp": "its bounds may be 0-d beside a shaped operand",
    "add_any": "defined in ad_util, below lax; takes operands of one shape",
}


def test_no_separate_batch_rule_modules() -> None:
    """Batch rules are written beside their primitives, not in ``*_batch.py`` side modules."""
    # interpreters/batching.py is the vmap interpreter; nn/batch_apply.py is Flax's BatchApply
    # layer and optim/microbatching.py optax's gradient accumulation (no batch rules)
    allowed = {
        "interpreters/batching.py",
        "custom_batching.py",
        "nn/batch_apply.py",
        "optim/microbatching.py",
    }
    found = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if ("batch" in p.stem) and str(p.relative_to(SRC)) not in allowed
    ]
    assert found == []


def test_kernels_are_attached_not_looked_up_by_name() -> None:
    assert not hasattr(backend, "IMPLS") and not hasattr(backend, "impl")
    assert all(p.impl is not None for p in PRIMS.values())


@pytest.mark.parametrize("name", sorted(n for n, p in PRIMS.items() if p.elementwise))
def test_elementwise_primitives_batch_elementwise(name: str) -> None:
    prim = PRIMS[name]
    assert prim.batch_rule is not None
    if name not in OWN_BATCH_RULE:
        assert prim.batch_rule.__qualname__.startswith("elementwise_rule.")


def test_one_definition_of_elementwise() -> None:
    """The eager memo, the fusion planner and the batch rules read one flag."""
    memo = {n for n, p in PRIMS.items() if p.elementwise_dtypes is not None}
    elementwise = {n for n, p in PRIMS.items() if p.elementwise}
    fusable = {n for n, p in PRIMS.items() if p.fusable}
    assert memo <= elementwise
    assert fusable <= elementwise
    assert {"add", "sin", "select_n", "convert_element_type"} <= fusable


def _numpy_layer_files() -> list[pathlib.Path]:
    return sorted((SRC / "numpy").glob("*.py"))


@pytest.mark.parametrize("path", _numpy_layer_files(), ids=lambda p: p.name)
def test_numpy_layer_reaches_concrete_arrays_through_eager(path: pathlib.Path) -> None:
    """No file of ``_src/numpy`` imports ``ArrayImpl`` or the backend (``backend/eager.py``, the
    shortcuts on concrete arrays, is the one door), or reads ``._value``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            where = (path.name, node.lineno)
            # the backend floor's eager door, and its NumPy error-state switch; no kernels
            if module == "trellax._src.backend":
                assert all(a.name in ("eager", "fp_errors") for a in node.names), where
            elif module.startswith("trellax._src.backend"):
                assert module in ("trellax._src.backend.eager", "trellax._src.backend.fp_errors"), (
                    where
                )
            assert all(a.name != "backend" for a in node.names), where
        elif isinstance(node, ast.Import):
            assert all("backend" not in a.name for a in node.names), (path.name, node.lineno)
        elif isinstance(node, ast.Name):
            assert node.id != "ArrayImpl", (path.name, node.lineno)
        elif isinstance(node, ast.Attribute):
            assert node.attr != "_value", (path.name, node.lineno)
