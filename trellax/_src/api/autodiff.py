"""The transformation entry points: ``jvp``, ``linearize``, ``vjp``, ``grad`` and
``value_and_grad`` (the Jacobians are in ``ad_jacobians``, ``linear_transpose`` in ``ad_linear``,
``custom_jvp``/``custom_vjp`` in ``custom_derivatives``, ``check_grads`` in ``test_util``).

Each is a pytree wrapper around the flat cores of ``interpreters/ad.py``: arguments are
flattened, leaves become arrays (a Python scalar is a weak array, as everywhere), the flat
function is differentiated, results are unflattened. Error texts are JAX's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from trellax._src.api import grad_refs
from trellax._src.api.closed_fun import ClosedFunction
from trellax._src.core import core, traceback_filter
from trellax._src.core.basearray import Array
from trellax._src.core.core import Placeholder, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.interpreters import ad
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import Zero, differentiable, float0, tangent_aval
from trellax._src.tree.registry import register_pytree_node
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_structure, tree_unflatten

# -- leaves ---------------------------------------------------------------------------------------


def _as_array(x: Any, what: str = "Argument") -> Any:
    """A leaf as a trellax array (Python scalars weak; NumPy values canonicalized)."""
    if isinstance(x, Array):
        return x
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        try:
            return asarray(x)
        except TypeError:  # a NumPy value of a dtype arrays cannot have (object, str...)
            raise TypeError(f"{what} '{x}' of type {type(x)} is not a valid JAX type.") from None
    if isinstance(x, Placeholder):  # a ShapeDtypeStruct while staging: a value-less constant
        try:
            return asarray(x)
        except TypeError:
            pass
    raise TypeError(f"{what} {x!r} of type {type(x)} is not a valid JAX type.")


def _primal(x: Any) -> Any:
    """A primal leaf: inexact values become arrays; integer and bool values stay as given (they
    are not differentiated, so a Python int stays a Python int, as in JAX)."""
    a = _as_array(x)
    return a if differentiable(a.dtype) else x


def _aval(x: Any) -> ShapedArray:
    if isinstance(x, np.ndarray) and x.dtype == float0:
        return ShapedArray._fast(x.shape, float0, False)
    return core.get_aval(_as_array(x))


def _zeros_out(aval: ShapedArray) -> Any:
    """A materialized zero tangent/cotangent (float0 ones are NumPy arrays, as in JAX)."""
    if aval.dtype == float0:
        return np.zeros(aval.shape, float0)
    return core.new_array(np.zeros(aval.shape, aval.dtype), aval.dtype, aval.weak_type)


def _materialize(t: Any) -> Any:
    return _zeros_out(t.aval) if type(t) is Zero else t


def _argnums(argnums: int | Sequence[int], n: int) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if nums and max(nums) >= n:
        raise TypeError(
            f"differentiating with respect to argnums={argnums} requires at least "
            f"{max(nums) + 1} positional arguments to be passed by the caller, but got only "
            f"{n} positional arguments."
        )
    for a in nums:
        if a < -n:
            raise ValueError(
                "Positional argument indices, e.g. for `static_argnums`, must have value greater "
                "than or equal to -len(args) and less than len(args), but got value "
                f"{a} for len(args) == {n}."
            )
    return tuple(a % n for a in nums)


def _split_aux(out: Any) -> tuple[Any, Any]:
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(
            "expected function with aux output to return a two-element tuple, but got type "
            f"{type(out)} with value {out!r}"
        )
    return out[0], out[1]


class _Flat:
    """``fun`` as a flat function of the leaves of ``args``; an aux output is kept aside."""

    def __init__(self, fun: Callable[..., Any], in_tree: PyTreeDef, has_aux: bool) -> None:
        self.fun = fun
        self.in_tree = in_tree
        self.has_aux = has_aux
        self.out_tree: PyTreeDef | None = None
        self.aux_value: Any = None
        self.n_out = 0

    def __call__(self, *leaves: Any) -> list[Any]:
        args = tree_unflatten(self.in_tree, list(leaves))
        out = self.fun(*args)
        if self.has_aux:
            out, self.aux_value = _split_aux(out)
        out_leaves, self.out_tree = tree_flatten(out)
        self.n_out = len(out_leaves)
        return out_leaves

    def aux(self, outs: Sequence[Any] = ()) -> Any:
        """The aux output, its values of the finished differentiation unwrapped to primals."""

        def unwrap(x: Any) -> Any:
            while type(x) is ad.JVPTracer and not x._trace.active:
                x = x.primal
            return x

        leaves, tree = tree_flatten(self.aux_value)
        return tree_unflatten(tree, [unwrap(x) for x in leaves])


def _partial_argnums(
    fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], nums: tuple[int, ...]
) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    def f_partial(*dyn: Any) -> Any:
        full = list(args)
        for i, a in zip(nums, dyn):
            full[i] = a
        return fun(*full, **kwargs)

    return f_partial, tuple(args[i] for i in nums)


def _flat_args(
    fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], argnums: Any
) -> tuple[Callable[..., Any], PyTreeDef, list[Any]]:
    """``fun`` of the ``argnums`` arguments only, their tree, and their leaves as primals."""
    f_partial, dyn = _partial_argnums(fun, args, kwargs, _argnums(argnums, len(args)))
    leaves, in_tree = tree_flatten(dyn)
    return f_partial, in_tree, [_primal(x) for x in leaves]


def check_unflatten(tree: PyTreeDef) -> None:
    """Rebuilds ``tree`` with ``None`` leaves, as JAX's ``tree_map`` of its input checks does
    (``jacrev``, ``jacfwd``; not ``grad``): a custom node whose unflatten cannot take ``None`` fails
    here, with its own error, as under JAX (whose docs warn of it)."""
    tree_unflatten(tree, [None] * tree.num_leaves)


def _linearize_args(
    fun: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    argnums: Any,
    name: str,
    holomorphic: bool,
    allow_int: bool,
    has_aux: bool,
    rebuild_check: bool = False,
) -> tuple[_Flat, PyTreeDef, list[Any], list[Any], ad.Linearized]:
    """Reverse mode's start (``grad``, ``jacrev``): the ``argnums`` arguments checked, and ``fun``
    linearized in them: the flat function, the input tree, the inputs, the outputs and the
    linearization. With ``rebuild_check`` (``jacrev``, as in JAX; ``grad`` never does it) the
    input tree is first rebuilt with ``None`` leaves (:func:`check_unflatten`)."""
    f_partial, in_tree, xs = _flat_args(fun, args, kwargs, argnums)
    for x in xs:
        _check_input(name, _aval(x), holomorphic, allow_int)
    if rebuild_check:
        check_unflatten(in_tree)
    flat = _Flat(f_partial, in_tree, has_aux)
    outs, lin = ad.linearize_flat(flat, xs)
    return flat, in_tree, xs, outs, lin


# -- jvp and linearize ------------------------------------------------------------------------------


@traceback_filter.api_boundary
def jvp(
    fun: Callable[..., Any], primals: Any, tangents: Any, has_aux: bool = False
) -> tuple[Any, ...]:
    """Forward mode: ``(fun(*primals), the directional derivative along tangents)``.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.jvp(tnp.sin, (0.0,), (2.0,))
    (Array(0., dtype=float32, weak_type=True), Array(2., dtype=float32, weak_type=True))
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            "primal and tangent arguments to jax.jvp must be tuples or lists; found "
            f"{type(primals).__name__} and {type(tangents).__name__}."
        )
    p_leaves, p_tree = tree_flatten(tuple(primals))
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if p_tree != t_tree or type(primals) is not type(tangents):
        raise TypeError(
            "primal and tangent arguments to jax.jvp must have the same tree structure; "
            f"primals have tree structure {p_tree} whereas tangents have tree structure {t_tree}."
        )
    ps: list[Any] = []
    ts: list[Any] = []
    originals: dict[int, Any] = {}
    for p, t in zip(p_leaves, t_leaves):
        pa, ta = _aval(p), _aval(t)
        expected = tangent_aval(pa)
        if ta.dtype != expected.dtype:
            raise TypeError(
                "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, or "
                "in case of int/bool primal dtype the tangent dtype must be float0."
                f"Got primal dtype {pa.dtype} and so expected tangent dtype {expected.dtype}, "
                f"but got tangent dtype {ta.dtype} instead."
            )
        if ta.shape != pa.shape:
            raise ValueError(
                "jvp called with different primal and tangent shapes;"
                f"Got primal shape {pa.shape} and tangent shape as {ta.shape}"
            )
        if expected.dtype == float0:
            ps.append(p)
            ts.append(Zero(expected))
        else:
            ps.append(_as_array(p))
            tt = _as_array(t)
            originals[id(tt)] = t
            ts.append(tt)
    flat = _Flat(fun, p_tree, has_aux)
    out_p, out_t = ad.jvp_flat(flat, ps, ts)
    assert flat.out_tree is not None
    tans = [
        _zeros_out(tangent_aval(_aval(p))) if type(t) is Zero else originals.get(id(t), t)
        for p, t in zip(out_p, out_t)
    ]
    n = flat.n_out
    result = (tree_unflatten(flat.out_tree, out_p[:n]), tree_unflatten(flat.out_tree, tans[:n]))
    if has_aux:
        return (*result, flat.aux(out_p))
    return result


def _check_tangent(t: Any, expected: ShapedArray, primal: Any) -> None:
    ta = _aval(t)
    if ta.shape != expected.shape or ta.dtype != expected.dtype:  # float0 for integer primals
        raise ValueError(
            "linearized function called on tangent values inconsistent with the original "
            f"primal values:\nGot tangent aval {_aval_str(ta)} for primal aval "
            f"{_aval_str(_aval(primal))} but expected {_aval_str(expected)}."
        )


def _aval_str(a: ShapedArray) -> str:
    """JAX's short form of an abstract value (``~float32[]``, ``float0[2]``)."""
    name = "float0" if a.dtype == float0 else a.dtype.name
    return f"{'~' if a.weak_type else ''}{name}[{','.join(map(str, a.shape))}]"


@traceback_filter.api_boundary
def linearize(fun: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """``(fun(*primals), f_jvp)``: ``f_jvp(*tangents)`` evaluates the linearized function.

    >>> import trellax, trellax.numpy as tnp
    >>> y, f_jvp = trellax.linearize(tnp.sin, 0.0)
    >>> f_jvp(3.0)
    Array(3., dtype=float32, weak_type=True)
    """
    leaves, in_tree = tree_flatten(primals)
    xs = [_primal(x) for x in leaves]
    flat = _Flat(fun, in_tree, has_aux)
    outs, lin = ad.linearize_flat(flat, xs)
    assert flat.out_tree is not None
    out_tree = flat.out_tree
    n = flat.n_out

    def f_jvp(closed: ClosedJaxpr, *tangents: Any) -> Any:
        """The linearized function: output tangents for input tangents."""
        t_leaves, t_tree = tree_flatten(tangents)
        if t_tree != in_tree:
            raise TypeError(
                f"linearized function called with tangents of tree structure {t_tree}, expected "
                f"{in_tree}"
            )
        for t, a, x in zip(t_leaves, lin.in_avals, xs):
            _check_tangent(t, a, x)
        ins = [
            _zeros_out(a) if a.dtype == float0 else _as_array(t)
            for t, a in zip(t_leaves, lin.in_avals)
        ]
        res = ad.Linearized(closed, lin.in_avals, lin.out_avals, lin.out_zero).apply(ins)[:n]
        return tree_unflatten(out_tree, [_materialize(t) for t in res])

    jvp_fun = ClosedFunction(f_jvp, lin.closed, "f_jvp")
    result = (tree_unflatten(out_tree, outs[:n]), jvp_fun)
    return (*result, flat.aux(outs)) if has_aux else result


# -- vjp --------------------------------------------------------------------------------------------


class VJP:
    """The function ``vjp`` returns: cotangents of the primals for one output cotangent. It is
    a pytree whose leaves are the residuals, so it can cross ``jit`` boundaries (as JAX's)."""

    def __init__(
        self,
        fun_name: str,
        lin: ad.Linearized,
        in_tree: PyTreeDef,
        out_tree: PyTreeDef,
        n_out: int,
        in_avals: list[ShapedArray],
    ) -> None:
        self.fun_name = fun_name
        self.lin = lin
        self.in_tree = in_tree
        self.out_tree = out_tree
        self.n_out = n_out
        self.in_avals = in_avals

    def __call__(self, *args: Any) -> tuple[Any, ...]:
        if len(args) != 1:
            raise TypeError(
                f"\nThe function returned by `jax.vjp` applied to {self.fun_name} was called "
                f"with {len(args)} arguments,\nbut functions returned by `jax.vjp` must be "
                "called with a single argument\ncorresponding to the single value returned by "
                "the function being differentiated\n(even if that returned value is a tuple or "
                "other container).\n\nFor example, if we have:\n\n  def f(x):\n    return (x, x)"
                "\n  _, f_vjp = jax.vjp(f, 1.0)\n\nthe function `f` could return multiple values "
                "by returning a tuple, and then `f_vjp` would need to be called as\n  "
                "f_vjp((1.0, 1.0))\n"
            )
        ct_leaves, ct_tree = tree_flatten(args[0])
        if ct_tree != self.out_tree:
            raise ValueError(
                "unexpected tree structure.\n\nThe argument to a VJP function returned by "
                "`jax.vjp` must match the pytree\nstructure of the differentiated function "
                f"{self.fun_name}.\n\nBut the tree structures differ: the output had structure "
                f"{self.out_tree}, the cotangent has {ct_tree}."
            )
        cts: list[Any] = []
        for ct, out_aval in zip(ct_leaves, self.lin.out_avals):
            ca = _aval(ct)
            if out_aval.dtype == float0:
                if ca.shape != out_aval.shape:
                    self._bad_ct(ca, out_aval)
                cts.append(Zero(out_aval))
                continue
            if ca.shape != out_aval.shape or ca.dtype != out_aval.dtype:
                self._bad_ct(ca, out_aval)
            cts.append(_as_array(ct))
        cts += [Zero(a) for a in self.lin.out_avals[self.n_out :]]
        res = self.lin.transpose(cts)
        leaves = [
            _zeros_out(tangent_aval(a)) if type(c) is Zero else c
            for c, a in zip(res, self.in_avals)
        ]
        out: tuple[Any, ...] = tree_unflatten(self.in_tree, leaves)
        return out

    def with_refs(self, *specs: Any) -> Callable[[Any], tuple[Any, ...]]:
        """This function, with each primal argument's cotangent delivered as its spec asks:
        ``trellax.ad.DontWant()``, ``GradValue()`` or an array reference that accumulates it
        (:mod:`trellax._src.api.grad_refs`)."""
        return grad_refs.with_refs(self, self.fun_name, specs)

    @staticmethod
    def _bad_ct(got: ShapedArray, expected: ShapedArray) -> None:
        raise ValueError(
            "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got "
            f"{_type_str(got)}, but expected {_type_str(expected)} because the corresponding "
            f"output of the differentiated function had JAX type {_type_str(expected)}"
        )


class _VJPStatic:
    """The non-array part of a :class:`VJP` as a pytree (compared by identity). It holds no
    residual: an output of ``jit`` must not keep the traced values alive (leak checker)."""

    __slots__ = ("fun_name", "in_avals", "in_tree", "jaxpr", "lin", "n_out", "out_tree")

    def __init__(self, vjp: VJP) -> None:
        self.fun_name = vjp.fun_name
        self.jaxpr = vjp.lin.closed.jaxpr
        lin = vjp.lin
        self.lin = (lin.in_avals, lin.out_avals, lin.out_zero)
        self.in_tree = vjp.in_tree
        self.out_tree = vjp.out_tree
        self.n_out = vjp.n_out
        self.in_avals = vjp.in_avals


def _flatten_vjp(f: VJP) -> tuple[list[Any], _VJPStatic]:
    return list(f.lin.closed.consts), _VJPStatic(f)


def _unflatten_vjp(static: _VJPStatic, consts: Iterable[Any]) -> VJP:
    closed = ClosedJaxpr(static.jaxpr, list(consts))
    new_lin = ad.Linearized(closed, *static.lin)
    return VJP(
        static.fun_name, new_lin, static.in_tree, static.out_tree, static.n_out, static.in_avals
    )


# As JAX's (a ``Partial``), the function ``vjp`` returns is a pytree whose leaves are the
# residuals: it can be returned from ``jit`` or kept as a ``custom_vjp`` residual.
register_pytree_node(VJP, _flatten_vjp, _unflatten_vjp)


def _type_str(a: ShapedArray) -> str:
    return f"{a.dtype.name}[{','.join(map(str, a.shape))}]"


def _fun_name(fun: Callable[..., Any]) -> str:
    return getattr(fun, "__name__", type(fun).__name__)


def _vjp(
    fun: Callable[..., Any], primals: tuple[Any, ...], has_aux: bool
) -> tuple[Any, VJP, Any, list[Any]]:
    leaves, in_tree = tree_flatten(primals)
    xs = [_primal(x) for x in leaves]
    flat = _Flat(fun, in_tree, has_aux)
    outs, lin = ad.linearize_flat(flat, xs)
    assert flat.out_tree is not None
    n = flat.n_out
    in_avals = [_aval(x) for x in xs]
    vjp_fn = VJP(_fun_name(fun), lin, in_tree, flat.out_tree, n, in_avals)
    aux = flat.aux(outs) if has_aux else None
    return tree_unflatten(flat.out_tree, outs[:n]), vjp_fn, aux, outs[:n]


@traceback_filter.api_boundary
def vjp(
    fun: Callable[..., Any], *primals: Any, has_aux: bool = False, reduce_axes: Any = ()
) -> tuple[Any, ...]:
    """Reverse mode: ``(fun(*primals), vjp_fn)``; ``vjp_fn(ct)`` returns one cotangent per
    primal, as a tuple. ``reduce_axes`` (removed from JAX) must be empty.

    >>> import trellax, trellax.numpy as tnp
    >>> y, f_vjp = trellax.vjp(tnp.sin, 0.0)
    >>> f_vjp(1.0)
    (Array(1., dtype=float32, weak_type=True),)
    """
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to vjp is deprecated")
    out, vjp_fn, aux, _ = _vjp(fun, primals, has_aux)
    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


# -- grad -------------------------------------------------------------------------------------------


def _check_input(name: str, aval: ShapedArray, holomorphic: bool, allow_int: bool) -> None:
    d = aval.dtype
    if holomorphic and d.kind != "c":
        raise TypeError(
            f"{name} with holomorphic=True requires inputs with complex dtype, but got {d.name}."
        )
    if not differentiable(d) and not allow_int:
        raise TypeError(
            f"{name} requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
            f"np.inexact), but got {d.name}. If you want to use Boolean- or integer-valued "
            "inputs, use vjp or set allow_int to True."
        )


def _check_output(name: str, aval: ShapedArray, holomorphic: bool) -> None:
    d = aval.dtype
    if holomorphic:
        if d.kind != "c":
            raise TypeError(
                f"{name} with holomorphic=True requires outputs with complex dtype, but got "
                f"{d.name}."
            )
        return
    if d.kind == "c":
        raise TypeError(
            f"{name} requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {d.name}. For holomorphic differentiation, pass "
            "holomorphic=True. For differentiation of non-holomorphic functions involving "
            "complex outputs, use jax.vjp directly."
        )
    if not differentiable(d):
        raise TypeError(
            f"{name} requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {d.name}. For differentiation of functions with integer "
            "outputs, use jax.vjp directly."
        )


def value_and_grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
    reduce_axes: Sequence[Any] = (),
) -> Callable[..., Any]:
    """``(fun(*args), grad(fun)(*args))`` in one pass (``((value, aux), g)`` with has_aux).

    >>> import trellax
    >>> trellax.value_and_grad(lambda x: x * x)(3.0)
    (Array(9., dtype=float32, weak_type=True), Array(6., dtype=float32, weak_type=True))
    """
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to grad is deprecated")
    name = "grad"

    @functools.wraps(fun, updated=())
    @traceback_filter.api_boundary
    def value_and_grad_f(*args: Any, **kwargs: Any) -> Any:
        flat, in_tree, xs, outs, lin = _linearize_args(
            fun, args, kwargs, argnums, name, holomorphic, allow_int, has_aux
        )
        assert flat.out_tree is not None
        n = flat.n_out
        value = tree_unflatten(flat.out_tree, outs[:n])
        if n != 1 or flat.out_tree != tree_structure(0):
            raise TypeError(
                f"Gradient only defined for scalar-output functions. Output was {value!r}."
            )
        out_aval = _aval(outs[0])
        if out_aval.shape:
            raise TypeError(
                "Gradient only defined for scalar-output functions. Output had shape: "
                f"{out_aval.shape}."
            )
        _check_output(name, out_aval, holomorphic)
        seed = core.new_array(np.ones((), out_aval.dtype), out_aval.dtype, out_aval.weak_type)
        cts = lin.transpose([seed] + [Zero(a) for a in lin.out_avals[1:]])
        g_leaves = [
            _zeros_out(tangent_aval(_aval(x))) if type(c) is Zero else c for c, x in zip(cts, xs)
        ]
        g = tree_unflatten(in_tree, g_leaves)
        if isinstance(argnums, int):
            g = g[0]
        if has_aux:
            return (value, flat.aux(outs)), g
        return value, g

    return value_and_grad_f


def grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    holomorphic: bool = False,
    allow_int: bool = False,
    reduce_axes: Sequence[Any] = (),
) -> Callable[..., Any]:
    """The gradient of a scalar function with respect to the argument(s) ``argnums``.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.grad(lambda x: tnp.sin(x) * x)(0.0)
    Array(0., dtype=float32, weak_type=True)
    """
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int, reduce_axes)

    @functools.wraps(fun, updated=())
    @traceback_filter.api_boundary
    def grad_f(*args: Any, **kwargs: Any) -> Any:
        (value_aux, g) = vg(*args, **kwargs)
        return (g, value_aux[1]) if has_aux else g

    return grad_f
