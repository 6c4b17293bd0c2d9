"""Ahead-of-time stages of ``jit``: ``jit(f).lower(*args)`` and ``.compile()``.

As in JAX, ``trellax.jit(f).lower(x)`` traces ``f`` for the abstract values of ``x`` and returns a
:class:`Lowered`; its ``.compile()`` returns a :class:`Compiled`, callable on arguments of those
shapes and dtypes (static arguments are fixed at ``lower`` and not passed again). trellax's
"lowering" is the generated NumPy program: ``as_text()`` shows the jaxpr, the fused regions (what
was fused, the chunk size) and the generated Python source.

>>> import trellax, trellax.numpy as tnp
>>> f = trellax.jit(lambda x: ((x * 2 + 1) ** 2).sum())
>>> compiled = f.lower(tnp.ones(3)).compile()
>>> compiled(tnp.arange(3.0))
Array(35., dtype=float32)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.api import flops, hlo_text
from trellax._src.api.leaves import ShapeDtypeStruct, _leaf_aval, _leaf_value, _unalias
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.interpreters import fusion_runtime, tracing
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


def _describe(closed: ClosedJaxpr, run: Callable[..., Any], name: str) -> str:
    opts = fusion_runtime.options()
    avals = ", ".join(a.str_short() for a in closed.in_avals)
    fused = "off"
    if opts.enabled:
        fused = (
            f"chunks of {opts.chunk} elements, regions of at least {opts.min_elements} "
            f"elements, {fusion_runtime.thread_count()} threads from {opts.min_threaded} "
            "elements"
        )
        if _config.state().excess:
            fused += (
                "; excess precision (fused_excess_precision): bfloat16/float16 computed in "
                "float32, rounded at region outputs and converts to them"
            )
    return "\n".join(
        [
            f"# trellax.jit({name}) for ({avals})",
            "# jaxpr:",
            str(closed),
            f"# fusion: {fused}",
            "# generated program (fused regions are the functions before run):",
            run.__doc__ or "",
            "# where:",
            *_bindings(run),
        ]
    )


def _bindings(run: Callable[..., Any]) -> list[str]:
    """``name = value`` for the values the generated source refers to by name."""
    program: Any = run
    while hasattr(program, "__wrapped__"):  # the error-state and BLAS-thread wrappers
        program = program.__wrapped__
    env: dict[str, Any] = getattr(program, "__globals__", {})
    used = set(re.findall(r"\b([a-z]+\d+)\b", run.__doc__ or ""))
    lines = []
    for name in sorted(used & set(env), key=lambda n: (n[0], int(re.sub(r"\D", "", n)))):
        value = env[name]
        if isinstance(value, functools.partial):
            parts = [repr(a) for a in value.args]
            parts += [f"{k}={v!r}" for k, v in value.keywords.items()]
            text = f"partial({_callable_name(value.func)}, {', '.join(parts)})"
        elif callable(value):
            text = _callable_name(value)
        elif isinstance(value, np.ndarray) and value.size > 8:
            text = f"<{value.dtype}{list(value.shape)} array>"
        else:
            text = repr(value)
        lines.append(f"#   {name} = {text}")
    return lines


def _callable_name(f: Any) -> str:
    module = getattr(f, "__module__", None) or ""
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or repr(f)
    if type(f).__name__ == "ufunc":
        return f"numpy.{f.__name__}"
    return f"{module}.{name}" if module else name


class Lowered:
    """A jitted function traced for given argument types (``jit(f).lower(*args)``)."""

    def __init__(
        self,
        closed: ClosedJaxpr,
        in_tree: PyTreeDef,
        out_tree: PyTreeDef,
        name: str,
        arg_names: Sequence[str],
    ) -> None:
        self.jaxpr = closed
        self._flat_avals = list(closed.in_avals)
        # JAX's views: the arguments' types as ``(args_tuple, kwargs_dict)`` and their tree
        args, kwargs = tree_unflatten(in_tree, self._flat_avals)
        self.in_avals: Any = (tuple(args), kwargs)
        self.in_tree = tree_flatten(self.in_avals)[1]
        self.out_tree = out_tree
        self._name = name
        self._arg_names = list(arg_names)
        self._out_structs: list[ShapeDtypeStruct] | None = None  # set by jit (out_shardings)

    def as_text(self) -> str:
        """The jaxpr, the fusion settings and the generated program (with the current fusion
        settings, as :meth:`compile` would generate it)."""
        return _describe(self.jaxpr, tracing.compile_jaxpr(self.jaxpr), self._name)

    def compiler_ir(self, dialect: str | None = None) -> Any:
        """``dialect="hlo"``: the jaxpr in XLA's HLO text syntax (an object with
        ``as_hlo_text()``; a view, trellax has no XLA: ``trellax._src.api.hlo_text``). StableHLO
        (JAX's default dialect) is not available."""
        if dialect == "hlo":
            return hlo_text.HloText(hlo_text.hlo_text(self.jaxpr, self._name, self._arg_names))
        if dialect in (None, "stablehlo"):
            raise NotImplementedError(
                "trellax has no StableHLO; compiler_ir(dialect='hlo') gives an HLO text view"
            )
        raise ValueError(f"Unknown dialect {dialect}")

    def compile(self, compiler_options: dict[str, str | bool] | None = None) -> Compiled:
        """The program, compiled with the fusion settings in force (``compiler_options`` are
        XLA's; accepted and unused: there is no XLA compiler here)."""
        return Compiled(self, tracing.compile_jaxpr(self.jaxpr))

    @property
    def out_info(self) -> Any:
        """The outputs' types: their tree with one ``ShapeDtypeStruct`` per array (with its
        ``out_shardings`` entry when the function was jitted with them)."""
        structs = self._out_structs
        if structs is None:
            structs = [
                ShapeDtypeStruct(a.shape, a.dtype, a.weak_type) for a in self.jaxpr.out_avals
            ]
        return tree_unflatten(self.out_tree, structs)

    def cost_analysis(self) -> dict[str, float]:
        """An estimate of the work (``flops``, ``transcendentals``, ``bytes accessed``) counted
        from the jaxpr by XLA's conventions (``trellax._src.api.flops``): a dict, as JAX's."""
        return flops.cost_analysis(self.jaxpr.jaxpr)

    def __repr__(self) -> str:
        avals = ", ".join(a.str_short() for a in self._flat_avals)
        return f"<trellax Lowered {self._name}({avals})>"


class Compiled:
    """A compiled program for fixed argument types (``jit(f).lower(*args).compile()``)."""

    def __init__(self, lowered: Lowered, run: Callable[..., tuple[Any, ...]]) -> None:
        self.lowered = lowered
        self.in_tree = lowered.in_tree
        self.out_tree = lowered.out_tree
        self.in_avals = lowered.in_avals
        self._flat_avals = lowered._flat_avals
        self._run = run
        self._out = [(a.dtype, a.weak_type) for a in lowered.jaxpr.out_avals]

    def as_text(self) -> str:
        return _describe(self.lowered.jaxpr, self._run, self.lowered._name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for x in tree_flatten((args, kwargs))[0]:
            if isinstance(x, core.Tracer):  # a program for fixed types cannot be traced into
                raise TypeError(
                    "Cannot apply JAX transformations to a function lowered and compiled for a "
                    f"particular signature. Detected argument of {type(x).__name__} type "
                    f"{x.aval.str_short()}: call the jitted function itself under transformations."
                )
        leaves, in_tree = tree_flatten((tuple(args), kwargs))
        if in_tree != self.in_tree:
            raise TypeError(
                "Function compiled with input pytree does not match the input pytree it was "
                f"called with: compiled for {self.in_tree}, called with {in_tree} (static "
                "arguments are fixed by lower() and not passed to the compiled function)"
            )
        names = self.lowered._arg_names
        names = names + [f"leaf {i}" for i in range(len(names), len(leaves))]
        mismatches = []
        for i, (leaf, want) in enumerate(zip(leaves, self._flat_avals)):
            got = _leaf_aval(leaf, functools.partial(names.__getitem__, i))
            if got.shape != want.shape or got.dtype != want.dtype:
                name = names[i]
                mismatches.append(
                    f"Argument {name!r} compiled with {_short(want)} and called with {_short(got)}"
                )
        if mismatches:
            raise TypeError(
                "Argument types differ from the types for which this computation was "
                "compiled. The mismatches are:\n" + "\n".join(mismatches)
            )
        values = [_leaf_value(x, a) for x, a in zip(leaves, self._flat_avals)]
        outs = _unalias(self._run(*values), leaves, values)
        arrays = [core.new_array(o, d, w) for o, (d, w) in zip(outs, self._out)]
        return tree_unflatten(self.out_tree, arrays)

    @property
    def out_info(self) -> Any:
        """The outputs' types (:attr:`Lowered.out_info`)."""
        return self.lowered.out_info

    def cost_analysis(self) -> dict[str, float]:
        """The lowered program's estimate (:meth:`Lowered.cost_analysis`): trellax's compiled
        program runs the same operations."""
        return self.lowered.cost_analysis()

    def __repr__(self) -> str:
        return f"<trellax Compiled {self.lowered._name}>"


def _short(a: ShapedArray) -> str:
    return f"{a.dtype.name}[{','.join(map(str, a.shape))}]"
