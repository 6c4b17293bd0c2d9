"""The functional forms of ``init``/``apply`` (Flax's ``nn.apply``, ``nn.init``,
``nn.init_with_output``): run ``fn(bound_module, *args)`` instead of a method, so one call can
use several submodules of a module defined in ``setup``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from trellax._src.nn.module import _INIT_MUTABLE, Module


def _method(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def method(bound: Module, *args: Any, **kwargs: Any) -> Any:
        return fn(bound, *args, **kwargs)

    return method


def apply(
    fn: Callable[..., Any],
    module: Module,
    mutable: Any = False,
    capture_intermediates: Any = False,
) -> Callable[..., Any]:
    """``(variables, *args, rngs=None, **kw) -> fn(module bound to variables, *args, **kw)``
    (``(out, updated)`` when ``mutable`` or ``capture_intermediates``)."""

    def run(variables: Mapping[str, Any], *args: Any, rngs: Any = None, **kwargs: Any) -> Any:
        return module.apply(
            variables,
            *args,
            rngs=rngs,
            method=_method(fn),
            mutable=mutable,
            capture_intermediates=capture_intermediates,
            **kwargs,
        )

    return run


def init_with_output(
    fn: Callable[..., Any],
    module: Module,
    mutable: Any = _INIT_MUTABLE,
    capture_intermediates: Any = False,
) -> Callable[..., tuple[Any, dict[str, Any]]]:
    """``(rngs, *args, **kw) -> (fn(bound module, *args, **kw), variables)``."""

    def run(rngs: Any, *args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        return module.init_with_output(
            rngs,
            *args,
            method=_method(fn),
            mutable=mutable,
            capture_intermediates=capture_intermediates,
            **kwargs,
        )

    return run


def init(
    fn: Callable[..., Any],
    module: Module,
    mutable: Any = _INIT_MUTABLE,
    capture_intermediates: Any = False,
) -> Callable[..., dict[str, Any]]:
    """``(rngs, *args, **kw) -> variables`` of running ``fn(bound module, *args, **kw)``."""
    with_out = init_with_output(fn, module, mutable, capture_intermediates)

    def run(rngs: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return with_out(rngs, *args, **kwargs)[1]

    return run
