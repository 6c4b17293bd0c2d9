"""``jax.numpy`` behaviours found by running JAX's own ``lax_numpy_test.py`` on trellax.

Values come from JAX (``tests/golden/jaxfile_numpy.json``, ``tools/gen_golden_jaxfile_numpy.py``),
evaluated here under ``numpy_rank_promotion("raise")`` as JAX's tests run; errors and signatures
are checked directly.
"""

from __future__ import annotations

import array as pyarray
import json
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest
from jaxfile_numpy_cases import CASES

import trellax
import trellax.numpy as jnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "jaxfile_numpy.json").read_text())


def _check(got: Any, want: Any) -> None:
    if isinstance(want, list):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    a = np.asarray(got)
    assert str(a.dtype) == want["dtype"]
    assert bool(got.weak_type) == want["weak_type"]
    values = want["values"]
    if a.dtype.kind == "c":
        np.testing.assert_allclose(np.real(a), values[0], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.imag(a), values[1], rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_allclose(a.astype(np.float64), values, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("expr", CASES)
def test_against_jax(expr: str) -> None:
    want = GOLDEN[expr]
    env = {"jax": trellax, "jnp": jnp, "np": np}
    with trellax.numpy_rank_promotion("raise"):
        if "error" in want:
            with pytest.raises(Exception) as info:
                eval(expr, env)
            assert type(info.value).__name__ == want["error"] or (
                want["error"] == "TypeError" and isinstance(info.value, TypeError)
            )
            return
        _check(eval(expr, env), want)


def test_arange_errors() -> None:
    with pytest.raises(ValueError, match=r"Passing complex start/stop/step to jnp\.arange"):
        jnp.arange(1 + 2j, 5 + 3j)
    with pytest.raises(ValueError, match="arguments must be scalars"):
        jnp.arange(np.arange(3))
    with pytest.raises(trellax.errors.ConcretizationTypeError, match="argument 'stop'"):
        trellax.jit(jnp.arange)(3)
    with pytest.raises(trellax.errors.ConcretizationTypeError, match="argument 'start'"):
        trellax.jit(lambda s: jnp.arange(s, 3))(0)


def test_array_positional_arguments_deprecated() -> None:
    x = jnp.array([1, 2, 3])
    with pytest.warns(DeprecationWarning, match="positionally is deprecated"):
        assert jnp.array(x, None, False) is x
    with pytest.warns(DeprecationWarning, match="positionally is deprecated"):
        assert jnp.array(x, None, True) is not x
    with pytest.raises(TypeError, match="multiple values for argument 'copy'"):
        jnp.array(x, None, True, copy=False)
    with pytest.raises(TypeError, match="at most 5 positional arguments"):
        jnp.array(x, None, True, "K", 0, "extra")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jnp.array(x, copy=False)


def test_conversions() -> None:
    assert jnp.asarray(pyarray.array("l", [0, 1, 2])).tolist() == [0, 1, 2]
    assert jnp.array([1, 2], device=trellax.devices()[0]).tolist() == [1, 2]
    with pytest.raises(ValueError, match=r"None is not a valid value for jnp\.array"):
        jnp.asarray(None)


def test_contains() -> None:
    assert 1 in jnp.arange(4)
    assert 100 not in jnp.arange(4)
    with pytest.raises(ValueError, match="search array must be one-dimensional"):
        _ = 1 in jnp.array(1)
    with pytest.raises(ValueError, match="query value must be a scalar"):
        _ = jnp.arange(2) in jnp.arange(2)
    with pytest.raises(TypeError, match="unsupported operand type"):
        _ = "abc" in jnp.arange(2)


def test_traced_attributes_and_errors() -> None:
    v = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert jnp.asarray(v).tobytes("F") == v.tobytes("F")
    seen = []

    def f(x: Any) -> Any:
        seen.append((x.itemsize, x.nbytes))
        return x

    trellax.jit(f)(v)
    assert seen == [(4, 48)]
    for method in ("tolist", "tobytes"):
        with pytest.raises(
            trellax.errors.ConcretizationTypeError, match=rf"The {method}\(\) method was called"
        ):
            trellax.jit(lambda x, m=method: getattr(x, m)())(v)


def test_shape_errors() -> None:
    with pytest.raises(TypeError, match="Shapes must be 1D sequences of concrete values"):
        jnp.zeros(1.0)
    with pytest.raises(TypeError, match=r"(?s)Shapes must be 1D.*static_argnums"):
        trellax.jit(jnp.zeros)(2)
    with pytest.raises(TypeError, match="Shapes must be 1D sequences of concrete values"):
        trellax.jit(jnp.tri)(3, M=3, k=0)
    with pytest.raises(OverflowError):
        jnp.tri(3, k=2**33)
    assert jnp.ones(np.array(2)).shape == (2,)


def test_mode_raise_under_jit() -> None:
    with pytest.raises(trellax.errors.ConcretizationTypeError, match="mode='raise'"):
        trellax.jit(lambda i: jnp.ravel_multi_index((i, i), (2, 3)))(jnp.array([0, 1]))
    with pytest.raises(trellax.errors.ConcretizationTypeError, match=r"jnp\.choose was jit"):
        trellax.jit(lambda i: jnp.choose(i, [jnp.zeros(2), jnp.ones(2)]))(jnp.array([0, 1]))
    with pytest.raises(trellax.errors.ConcretizationTypeError, match=r"slice start of jnp\.mgrid"):
        trellax.jit(lambda a, b: jnp.mgrid[a:b])(0, 2)


def test_take_from_empty_axis_refused() -> None:
    with pytest.raises(IndexError, match=r"non-empty jnp\.take"):
        jnp.take(jnp.ones((2, 0, 4)), jnp.array([0]), axis=1)
    assert jnp.take(jnp.ones((2, 0, 4)), jnp.array([], jnp.int32), axis=1).shape == (2, 0, 4)


@pytest.mark.parametrize("mode", ["wrap", "clip", "fill", None])
def test_empty_take_from_empty_axis_in_every_mode(mode: str | None) -> None:
    """JAX 0.10.2 takes no indices from an empty axis in every mode (fuzzer seed 1241: ``wrap``
    raised IndexError here)."""
    out = jnp.take(jnp.zeros((0,), jnp.float16), jnp.array([], jnp.int32), mode=mode)
    assert (out.shape, out.dtype) == ((0,), np.dtype(np.float16))
    with pytest.raises(IndexError, match=r"non-empty jnp\.take"):
        jnp.take(jnp.zeros((0,)), jnp.array([1]), mode=mode)


def test_concatenate_checks_ranks_before_zero_d() -> None:
    """JAX 0.10.2 compares every operand's rank with the first's before refusing 0-d operands
    (fuzzer seeds 950, 1834, 2326, 2408)."""
    with pytest.raises(TypeError, match="different numbers of dimensions"):
        jnp.concatenate([jnp.ones(2), jnp.ones(())])
    with pytest.raises(ValueError, match="Zero-dimensional"):
        jnp.concatenate([jnp.ones(()), jnp.ones(2)])
