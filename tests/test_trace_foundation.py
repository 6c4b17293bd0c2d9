"""The trace foundation autodiff builds on: the tracer base, trace nesting, lifting, copies."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.core import core, errors
from trellax._src.interpreters import tracing


def test_tracer_base_class() -> None:
    seen: list[Any] = []

    def f(x: Any) -> Any:
        seen.append(x)
        assert isinstance(x, core.Tracer) and isinstance(x, trellax.Array)
        assert not core.is_concrete(x)
        return x + 1

    trellax.jit(f)(1.0)
    assert core.is_concrete(tnp.ones(2)) and core.is_concrete(1.0) and core.is_concrete(np.ones(2))
    with pytest.raises(errors.UnexpectedTracerError):
        seen[0]._value


def test_trace_parent_and_using_trace() -> None:
    outer = core.current_trace()
    assert outer is core.eval_trace and outer.parent is None
    t = tracing.JaxprTrace("g")
    assert t.parent is outer
    with core.using_trace(t) as installed:
        assert installed is t and core.current_trace() is t
    assert core.current_trace() is outer


def test_copy_and_deepcopy_of_a_tracer_inside_jit() -> None:
    out = trellax.jit(lambda x: copy.copy(x) + copy.deepcopy(x))(tnp.float32(2))
    assert float(out) == 4.0


def test_pickle_of_a_tracer_raises() -> None:
    def f(x: Any) -> Any:
        pickle.dumps(x)
        return x

    with pytest.raises(errors.ConcretizationTypeError, match="pickle"):
        trellax.jit(f)(1.0)


def test_to_atom_lifts_a_tracer_of_an_enclosing_trace() -> None:
    outer = tracing.JaxprTrace("outer")
    x = outer.new_arg(core.ShapedArray((), np.float32))
    inner = tracing.JaxprTrace("inner", parent=outer)
    atom = inner.to_atom(x)
    assert inner.consts == [x] and inner.constvars == [atom]
    outer.active = False
    with pytest.raises(errors.UnexpectedTracerError):
        tracing.JaxprTrace("late").to_atom(x)


def test_primitive_rule_registration() -> None:
    p = core.Primitive("test_only_identity")

    @p.def_jvp
    def _jvp(primals: Any, tangents: Any) -> Any:
        return primals[0], tangents[0]

    @p.def_transpose
    def _t(ct: Any, x: Any) -> Any:
        return [ct]

    @p.def_batch
    def _b(args: Any, dims: Any) -> Any:
        return args[0], dims[0]

    assert p.jvp_rule is _jvp and p.transpose_rule is _t and p.batch_rule is _b
    del core._REGISTRY["test_only_identity"]
