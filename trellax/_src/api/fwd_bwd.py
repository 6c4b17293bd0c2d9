"""``fwd_and_bwd``: a function's forward and backward passes as two functions (JAX's
``jax.fwd_and_bwd``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.api.autodiff import vjp


def fwd_and_bwd(
    fun: Callable[..., Any],
    argnums: int | Sequence[int],
    has_aux: bool = False,
    jitted: bool = True,
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``fwd(*args) -> (out, residuals)`` and ``bwd(residuals, ct)``: the cotangents of the
    ``argnums`` arguments (``residuals`` is the VJP function, as in JAX)."""

    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def fwd(*args: Any) -> Any:
        def partial_fun(*dyn: Any) -> Any:
            full = list(args)
            for i, d in zip(nums, dyn):
                full[i] = d
            return fun(*full)

        return vjp(partial_fun, *[args[i] for i in nums], has_aux=has_aux)

    def bwd(residuals: Any, ct: Any) -> Any:
        cts = residuals(ct)
        return cts[0] if isinstance(argnums, int) else cts

    def fwd_out(*args: Any) -> Any:
        res = fwd(*args)
        if has_aux:
            out, vjp_fun, aux = res
            return (out, aux), vjp_fun
        return res

    return fwd_out, bwd
