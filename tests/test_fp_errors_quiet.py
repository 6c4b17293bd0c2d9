"""NumPy's floating-point errors stay silent on the eager fast paths, whichever way the error
state is entered (the prepared quiet context, or the variable when that context is busy), and
the caller's NumPy state is never changed."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import trellax.lax as lax
import trellax.numpy as jnp
from trellax._src.backend import fp_errors


def _overflowing() -> list[tuple[str, object]]:
    big = jnp.full(8, 3e38, dtype=jnp.float32)
    zero = jnp.zeros(3, dtype=jnp.float32)
    return [
        ("operator add", lambda: big + big),
        ("operator mul", lambda: big * big),
        ("ufunc sin of inf", lambda: jnp.sin(jnp.full(2, jnp.inf, dtype=jnp.float32))),
        ("lax.sub inf - inf", lambda: lax.sub(big * big, big * big)),
        ("lax.exp", lambda: lax.exp(big)),
        ("0 / 0", lambda: zero / zero),
        ("log of -1", lambda: jnp.log(-jnp.ones(2, dtype=jnp.float32))),
    ]


@pytest.mark.parametrize("name,fn", _overflowing())
def test_no_warning_and_no_change_of_the_callers_state(name: str, fn: object) -> None:
    assert callable(fn)
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = np.asarray(fn())
    assert not np.isfinite(out).all(), name
    with np.errstate(all="raise"):
        out = np.asarray(fn())  # the caller's "raise" does not reach trellax either
        assert np.geterr()["over"] == "raise"
    assert np.geterr() == before


def test_busy_quiet_context_falls_back_to_the_variable() -> None:
    """Re-entering the quiet context fails inside ``Context.run``; the operation then sets the
    error-state variable instead, with the same value and no warning."""
    big = jnp.full(4, 3e38, dtype=jnp.float32)
    one = jnp.ones(4, dtype=jnp.float32)

    def inside() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (
            np.asarray(big + big),
            np.asarray(jnp.sin(one)),
            np.asarray(lax.mul(big, big)),
        )

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = fp_errors.RUN_QUIET(inside)
    assert np.isposinf(got[0]).all()
    np.testing.assert_array_equal(got[1], np.sin(np.ones(4, np.float32)))
    assert np.isposinf(got[2]).all()
    assert np.geterr()["over"] == "warn"


def test_a_thread_inside_the_quiet_context_does_not_block_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While one thread is inside the quiet context, another thread's operations take the
    fallback (counted here) and give the same values."""
    from trellax._src.backend import eager

    calls = [0]
    real = eager._call_quiet

    def counted(*args: object) -> object:
        calls[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(eager, "_call_quiet", counted)
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        entered.set()
        release.wait(10)

    holder = threading.Thread(target=lambda: fp_errors.RUN_QUIET(hold))
    holder.start()
    try:
        assert entered.wait(10)
        big = jnp.full(3, 3e38, dtype=jnp.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.isposinf(np.asarray(big + big)).all()
            assert np.isnan(np.asarray(jnp.sin(big * big))).all()
    finally:
        release.set()
        holder.join()
    assert calls[0] >= 3  # add, mul and sin each found the context busy


def test_threads_share_the_quiet_path() -> None:
    """Large ufuncs release the GIL inside the quiet context, so other threads find it busy;
    every thread gets its exact values and no warning."""
    n = 200_000
    base = np.linspace(-3e38, 3e38, n, dtype=np.float32)
    with np.errstate(all="ignore"):
        expected_sum = base + base
        expected_sin = np.sin(base)
    x = jnp.asarray(base)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                for _ in range(20):
                    np.testing.assert_array_equal(np.asarray(x + x), expected_sum)
                    np.testing.assert_array_equal(np.asarray(jnp.sin(x)), expected_sin)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_python_impls_see_the_callers_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only NumPy's ufuncs run in the quiet context: an impl written in Python (``div``'s,
    ``max``'s) runs in the caller's context, so it reads the caller's trace and configuration
    (a local ``enable_x64`` here); ``add`` and ``sin`` take the quiet context."""
    from trellax import enable_x64
    from trellax._src.backend import eager

    ran: list[str] = []
    real = eager._RUN_QUIET

    def recorded(fn: object, *args: object) -> object:
        ran.append(getattr(fn, "__name__", repr(fn)))
        return real(fn, *args)

    monkeypatch.setattr(eager, "_RUN_QUIET", recorded)
    # the operator closures bind the module global at call time
    with enable_x64(True):
        a = jnp.arange(1.0, 4.0)
        assert a.dtype == jnp.float64
        q = a / a
        m = jnp.maximum(a, a)
        s = a + a
        t = jnp.sin(a)
        _ = a * a  # (mul's shortcut learns a dtype's verdict from its first call)
        u = a * a
    assert q.dtype == m.dtype == s.dtype == t.dtype == u.dtype == jnp.float64
    np.testing.assert_array_equal(np.asarray(q), np.ones(3))
    # (the second product takes the shortcut; the first too when an earlier test taught it)
    assert ran[:2] == ["add", "sin"] and set(ran[2:]) == {"multiply"}, ran
