"""``jax._src.compiler``: chex imports it to wrap XLA's compile calls (``restrict_backends``).
trellax compiles to Python, never through these functions, so wrapping them restricts nothing."""

from __future__ import annotations

from typing import Any, NoReturn


def backend_compile_and_load(*args: Any, **kwargs: Any) -> NoReturn:
    """XLA's compile entry point: trellax has no XLA backend."""
    del args, kwargs
    raise NotImplementedError("trellax has no XLA backend: jax._src.compiler is a stand-in")


backend_compile = backend_compile_and_load
