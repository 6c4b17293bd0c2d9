"""Traceback filtering (``jax_traceback_filtering``): which frames an exception keeps once it
leaves ``jit``, ``grad``, ``vmap``, ``Module.init``/``apply``; ``flax.traceback_util``."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any

import pytest

import trellax
import trellax.numpy as tnp
from trellax import nn
from trellax._src.core import traceback_filter
from trellax.flax import traceback_util

HERE = os.path.abspath(__file__)
PACKAGE = os.path.dirname(os.path.abspath(trellax.__file__))


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    before = list(traceback_filter._exclude_paths)
    yield
    trellax.config.update("jax_traceback_filtering", "auto")
    traceback_filter._exclude_paths[:] = before
    traceback_util.hide_flax_in_tracebacks()


def boom(x: Any) -> Any:
    raise ValueError("boom")


def caught(call: Callable[[], Any]) -> BaseException:
    with pytest.raises(Exception) as info:
        call()
    return info.value


def files(tb: TracebackType | None) -> list[str]:
    return [os.path.abspath(f.f_code.co_filename) for f, _ in traceback.walk_tb(tb)]


def in_package(path: str) -> bool:
    return path.startswith(PACKAGE + os.sep)


def shown(tb: TracebackType | None) -> list[str]:
    """The files of the frames pytest/IPython print (no ``__tracebackhide__`` local)."""
    return [
        os.path.abspath(f.f_code.co_filename)
        for f, _ in traceback.walk_tb(tb)
        if "__tracebackhide__" not in f.f_locals
    ]


CALLS: dict[str, Callable[[], Any]] = {
    "jit": lambda: trellax.jit(lambda x: boom(x) + 1)(tnp.ones(3)),
    "jit eager retrace": lambda: trellax.jit(lambda x, y: boom(x))(tnp.ones(2), 1.0),
    "grad": lambda: trellax.grad(lambda x: boom(x))(1.0),
    "value_and_grad": lambda: trellax.value_and_grad(boom)(1.0),
    "vmap": lambda: trellax.vmap(boom)(tnp.ones(3)),
    "jacrev": lambda: trellax.jacrev(boom)(tnp.ones(3)),
    "jacfwd": lambda: trellax.jacfwd(boom)(tnp.ones(3)),
    "vjp": lambda: trellax.vjp(boom, 1.0),
    "jvp": lambda: trellax.jvp(boom, (1.0,), (1.0,)),
    "eval_shape": lambda: trellax.eval_shape(boom, 1.0),
    "make_jaxpr": lambda: trellax.make_jaxpr(boom)(1.0),
    "jit of grad of vmap": lambda: trellax.jit(trellax.grad(lambda x: trellax.vmap(boom)(x).sum()))(
        tnp.ones(3)
    ),
}


@pytest.mark.parametrize("mode", ["auto", "off"])
@pytest.mark.parametrize("name", sorted(CALLS))
def test_default_keeps_every_frame(name: str, mode: str) -> None:
    trellax.config.update("jax_traceback_filtering", mode)
    e = caught(CALLS[name])
    paths = files(e.__traceback__)
    assert paths[0] == HERE and paths[-1] == HERE  # the call here, then boom's raise
    assert any(in_package(p) for p in paths)  # trellax's frames are all there
    assert e.__cause__ is None and not getattr(e, "__notes__", None)
    assert not any(
        "__tracebackhide__" in f.f_locals
        for f, _ in traceback.walk_tb(e.__traceback__)
        if in_package(f.f_code.co_filename) and f.f_code.co_name != "boundary"
    )


@pytest.mark.parametrize("name", sorted(CALLS))
def test_remove_frames(name: str) -> None:
    trellax.config.update("jax_traceback_filtering", "remove_frames")
    e = caught(CALLS[name])
    paths = files(e.__traceback__)
    assert paths and not any(in_package(p) for p in paths), paths
    assert paths[-1] == HERE  # boom's frame is the innermost one
    cause = e.__cause__
    assert isinstance(cause, traceback_filter.UnfilteredStackTrace)
    assert "ValueError: boom" in str(cause)
    assert any(in_package(p) for p in files(cause.__traceback__))
    assert e.__context__ is None and e.__suppress_context__


@pytest.mark.parametrize("name", sorted(CALLS))
def test_quiet_remove_frames(name: str) -> None:
    trellax.config.update("jax_traceback_filtering", "quiet_remove_frames")
    e = caught(CALLS[name])
    assert not any(in_package(p) for p in files(e.__traceback__))
    assert e.__cause__ is None
    assert any("removed its internal frames" in n for n in getattr(e, "__notes__", []))


@pytest.mark.parametrize("name", sorted(CALLS))
def test_tracebackhide(name: str) -> None:
    trellax.config.update("jax_traceback_filtering", "tracebackhide")
    e = caught(CALLS[name])
    everything = files(e.__traceback__)
    assert any(in_package(p) for p in everything)  # the traceback object is unchanged
    assert shown(e.__traceback__) == [p for p in everything if not in_package(p)]
    assert e.__cause__ is None


def test_earlier_cause_moves_onto_the_unfiltered_trace() -> None:
    def f(x: Any) -> Any:
        try:
            {}["missing"]
        except KeyError as inner:
            raise ValueError("outer") from inner

    trellax.config.update("jax_traceback_filtering", "remove_frames")
    e = caught(lambda: trellax.grad(f)(1.0))
    assert isinstance(e.__cause__, traceback_filter.UnfilteredStackTrace)
    assert isinstance(e.__cause__.__cause__, KeyError)


def test_nested_boundaries_filter_once() -> None:
    trellax.config.update("jax_traceback_filtering", "quiet_remove_frames")
    e = caught(lambda: trellax.jit(trellax.grad(trellax.jit(lambda x: boom(x))))(1.0))
    assert len(getattr(e, "__notes__", [])) == 1


def test_errors_of_trellax_itself_lose_the_raise_site_only_when_asked() -> None:
    bad = lambda: trellax.jit(lambda x: tnp.reshape(x, (4,)))(tnp.ones(3))  # noqa: E731
    trellax.config.update("jax_traceback_filtering", "off")
    assert in_package(files(caught(bad).__traceback__)[-1])
    trellax.config.update("jax_traceback_filtering", "remove_frames")
    e = caught(bad)
    assert type(e) is TypeError  # the error class is untouched
    assert files(e.__traceback__)[-1] == HERE


class _Raises(nn.Module):
    @nn.compact
    def __call__(self, x: Any) -> Any:
        nn.Dense(2)(x)
        raise ValueError("in module")


@pytest.mark.parametrize("how", ["init", "apply"])
def test_modules_are_boundaries_and_flax_frames_can_be_shown(how: str) -> None:
    x = tnp.ones((1, 3))
    key = trellax.random.key(0)
    params = {"params": {"Dense_0": {"kernel": tnp.ones((3, 2)), "bias": tnp.zeros(2)}}}

    def call() -> Any:
        if how == "init":
            return nn.jit(_Raises)().init(key, x)
        return _Raises().apply(params, x)

    trellax.config.update("jax_traceback_filtering", "remove_frames")
    hidden = files(caught(call).__traceback__)
    assert hidden and all(p == HERE for p in hidden)
    traceback_util.show_flax_in_tracebacks()
    with_flax = files(caught(call).__traceback__)
    flax_dirs = traceback_filter.FLAX_PATHS
    assert any(p.startswith(flax_dirs) for p in with_flax)
    assert not any(in_package(p) and not p.startswith(flax_dirs) for p in with_flax)


def test_flax_show_and_hide_change_the_exclusion_list_by_the_flax_paths() -> None:
    traceback_util.show_flax_in_tracebacks()
    without = len(traceback_filter._exclude_paths)
    traceback_util.hide_flax_in_tracebacks()
    traceback_util.hide_flax_in_tracebacks()  # idempotent
    assert len(traceback_filter._exclude_paths) - without == len(traceback_util._flax_exclusions)


def test_register_exclusion_hides_a_library_path(tmp_path: Any) -> None:
    trellax.config.update("jax_traceback_filtering", "remove_frames")
    traceback_filter.register_exclusion(os.path.dirname(HERE))  # this test folder, as a library
    e = caught(CALLS["grad"])
    names = [f.f_code.co_name for f, _ in traceback.walk_tb(e.__traceback__)]
    assert names == ["caught", "<lambda>"]  # only the frames above the boundary: boom's is gone
    assert traceback_filter.include_filename(str(tmp_path / "user.py"))


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError):
        trellax.config.update("jax_traceback_filtering", "sometimes")
