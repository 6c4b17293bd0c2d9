"""``jit``'s JAX options that change nothing here but are checked as JAX checks them, and the
``Traced`` object of ``jit(f).trace(...)``.

Kept apart from ``api.py``: the checks are about a function's signature, not about tracing.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.tree.tree_util import PyTreeDef

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def as_tuple(value: Any, kind: type) -> tuple[Any, ...]:
    """An ``int``/``str`` or a sequence of them (or None) as a tuple, as jit's options take."""
    if value is None:
        return ()
    if isinstance(value, kind):
        return (value,)
    return tuple(value)


def _positional_count(sig: inspect.Signature | None) -> int | None:
    """How many positional arguments a function with ``sig`` takes (None: any number)."""
    if sig is None:
        return None
    kinds = [p.kind for p in sig.parameters.values()]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    return sum(k in _POSITIONAL for k in kinds)


def check_argnames(sig: inspect.Signature | None, what: str, names: Sequence[str]) -> None:
    """JAX's errors for ``static_argnames``/``donate_argnames``: a name of a positional-only or
    ``*args`` parameter, or (without ``**kwargs``) a name the function does not take."""
    if sig is None:
        return
    kinds = {p.name: p.kind for p in sig.parameters.values()}
    bad = {
        n
        for n in names
        if kinds.get(n) in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.VAR_POSITIONAL)
    }
    if bad:
        raise ValueError(
            f"Jitted function has invalid argnames {bad} in {what}. These are positional-only "
            "or *args parameters, which cannot be passed by name."
        )
    if inspect.Parameter.VAR_KEYWORD in kinds.values():
        return
    unknown = set(names) - set(kinds)
    if unknown:
        raise ValueError(
            f"Jitted function has invalid argnames {unknown} in {what}. Function does not take "
            "these args."
        )


def check_argnums(sig: inspect.Signature | None, what: str, nums: tuple[int, ...]) -> None:
    """JAX's ValueError for argument numbers beyond the function's positional parameters."""
    n = _positional_count(sig)
    if n is not None and any(not -n <= i < n for i in nums):
        raise ValueError(
            f"Jitted function has {what}={nums}, but only accepts {n} positional arguments."
        )


class JitOptions:
    """``jit``'s options that JAX has and that change nothing here, checked as JAX checks them.

    * ``donate_argnums``/``donate_argnames``: JAX may reuse a donated argument's device buffer
      for an output. trellax arrays are immutable NumPy buffers and a compiled program never
      writes into its inputs, so there is nothing to donate: a documented no-op (JAX on CPU
      warns that the donated buffers were not usable; trellax does not warn).
    * ``keep_unused``: JAX prunes unused arguments from the compiled program unless it is set;
      pruning is invisible here (a compiled program ignores arguments it does not read).
    * ``inline``: as in JAX, a jitted function called inside another trace is one ``jit``
      equation, unless ``inline=True``: then its operations join the enclosing trace.
    * ``in_shardings``/``out_shardings``/``device``/``backend``: the data is one NumPy buffer
      whatever the sharding, so they change no value. An eager call's results report the
      ``out_shardings`` given (``device_put`` to them: ``.sharding``, ``addressable_shards``,
      as in JAX); the input shardings are not propagated to the results. JAX's errors are kept (a bare ``PartitionSpec`` outside a mesh
      context, a tuple of the wrong length, ``device`` with ``backend`` or with
      ``in_shardings``, a backend other than ``"cpu"``).
    * ``compiler_options``: XLA's options; there is no XLA, so they are accepted and ignored
      (JAX rejects unknown option names; trellax cannot tell them apart).
    """

    __slots__ = (
        "backend",
        "compiler_options",
        "device",
        "donate_argnames",
        "donate_argnums",
        "in_shardings",
        "inline",
        "keep_unused",
        "out_shardings",
    )

    def __init__(
        self,
        donate_argnums: tuple[int, ...] = (),
        donate_argnames: tuple[str, ...] = (),
        keep_unused: bool = False,
        inline: bool = False,
        *,
        in_shardings: Any = None,
        out_shardings: Any = None,
        device: Any = None,
        backend: str | None = None,
        compiler_options: dict[str, Any] | None = None,
    ) -> None:
        self.donate_argnums = donate_argnums
        self.donate_argnames = donate_argnames
        self.keep_unused = bool(keep_unused)
        self.inline = bool(inline)
        if device is not None and backend is not None:
            raise ValueError(
                "can't specify both a device and a backend for jit, got "
                f"device={device!r} and backend={backend!r}"
            )
        if (device is not None or backend is not None) and in_shardings is not None:
            raise ValueError(
                "If backend or device is specified on jit, then in_shardings should not be "
                "specified."
            )
        self.in_shardings = in_shardings
        self.out_shardings = out_shardings
        self.device = device
        self.backend = backend
        self.compiler_options = dict(compiler_options or {})

    def key(self) -> tuple[Any, ...]:
        """The options as part of a cache key (a wrapper with other options traces anew)."""
        placement = (self.in_shardings, self.out_shardings, self.device, self.backend)
        return (
            self.donate_argnums,
            self.donate_argnames,
            self.keep_unused,
            self.inline,
            repr(placement),  # shardings may be lists; their reprs name them fully
            repr(sorted(self.compiler_options.items())),
        )

    def check_call(self, n_positional: int, has_kwargs: bool = False) -> None:
        """JAX's call-time errors of the placement options (run when a signature is traced);
        ``n_positional`` counts the positional arguments that are not static, ``has_kwargs``
        says whether keyword arguments were given (static ones too, as JAX counts them)."""
        if self.backend is not None and self.backend != "cpu":
            raise RuntimeError(
                f"Unknown backend: '{self.backend}' requested, but no platforms that are "
                f"instances of {self.backend} are present. Platforms present are: cpu"
            )
        for what, spec in (
            ("in_shardings", self.in_shardings),
            ("out_shardings", self.out_shardings),
        ):
            for s in _spec_leaves(spec):
                if type(s).__name__ == "PartitionSpec" and _context_mesh() is None:
                    raise RuntimeError(
                        f"jit requires a non-empty mesh in context if you are passing "
                        f"`PartitionSpec`s to {what}. You can define a context mesh via "
                        "`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to "
                        f"{what} and then the mesh context manager is not required."
                    )
        spec = self.in_shardings
        if spec is not None and has_kwargs:
            raise ValueError("pjit does not support kwargs when in_shardings is specified.")
        if isinstance(spec, (tuple, list)) and len(spec) != n_positional:
            raise ValueError(
                "pjit in_shardings specification must be a tree prefix of the positional "
                "arguments tuple. In particular, pjit in_shardings must either be a Sharding, a "
                "PartitionSpec, or a tuple of length equal to the number of positional "
                f"arguments. But pjit in_shardings is the wrong length: got a tuple or list of "
                f"length {len(spec)} for an args tuple of length {n_positional}."
            )

    def check(self, sig: inspect.Signature | None, static_argnames: frozenset[str]) -> None:
        """JAX's errors: donated numbers beyond the signature, and an argument both static and
        donated (``static_argnames`` already holds the names of the static positions)."""
        check_argnums(sig, "donate_argnums", self.donate_argnums)
        check_argnames(sig, "donate_argnames", self.donate_argnames)
        names = set(self.donate_argnames)
        if sig is not None:
            params = [p for p in sig.parameters.values() if p.kind in _POSITIONAL]
            names |= {
                params[n].name
                for n in self.donate_argnums
                if 0 <= n < len(params) and params[n].kind is not inspect.Parameter.POSITIONAL_ONLY
            }
        both = names & static_argnames
        if both:
            raise ValueError(
                "static_argnames and donate_argnames cannot intersect. Argument names "
                f"{set(sorted(both))} appear in both static_argnames and donate_argnames"
            )


def _spec_leaves(spec: Any) -> list[Any]:
    """The shardings/partition specs of an ``in_shardings``/``out_shardings`` value."""
    if spec is None:
        return []
    if type(spec).__name__ == "PartitionSpec":
        return [spec]
    if isinstance(spec, (tuple, list)):
        return [leaf for s in spec for leaf in _spec_leaves(s)]
    if isinstance(spec, dict):
        return [leaf for s in spec.values() for leaf in _spec_leaves(s)]
    return [spec]


#: The mesh of ``set_mesh``/``with mesh:``, if any: registered by ``runtime.sharding`` (a higher
#: layer, which owns meshes); None until it is imported.
context_mesh: list[Callable[[], Any]] = []


def _context_mesh() -> Any:
    return context_mesh[0]() if context_mesh else None


#: ``device_put``, registered by ``runtime.device`` (a higher layer, which owns placement): an
#: eager call of a function jitted with ``out_shardings`` puts its results there.
place_outputs: list[Callable[[Any, Any], Any]] = []


class Traced:
    """A function traced for particular arguments (``jit(f).trace(*args)``, as JAX's
    ``Traced``): ``jaxpr`` (a :class:`ClosedJaxpr`), ``in_avals``/``in_tree`` (the traced, not
    static, arguments as ``(args, kwargs)``), ``out_avals``/``out_info``/``out_tree`` (the
    results as abstract values and as ``ShapeDtypeStruct``), ``fun_name``, ``donate_argnums``,
    and ``lower()`` (``jit(f).lower`` of the same arguments)."""

    def __init__(
        self,
        *,
        jaxpr: ClosedJaxpr,
        fun_name: str,
        in_tree: PyTreeDef,
        in_avals: Any,
        out_tree: PyTreeDef,
        out_avals: Any,
        out_info: Any,
        donate_argnums: tuple[int, ...],
        lower: Callable[[], Any],
    ) -> None:
        self.jaxpr = jaxpr
        self.fun_name = fun_name
        self.in_tree = in_tree
        self.in_avals = in_avals
        self.out_tree = out_tree
        self.out_avals = out_avals
        self.out_info = out_info
        self.donate_argnums = donate_argnums
        self._lower = lower

    def lower(self) -> Any:
        """``jit(f).lower`` of the arguments this was traced with."""
        return self._lower()

    def __repr__(self) -> str:
        return f"Traced<{self.fun_name}>"
