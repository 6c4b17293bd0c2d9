"""What a Dask task runs: a program's stages, partial combination, gathers and splits.

A task never receives a jaxpr. It receives a :class:`ProgramSpec` (the user's function, the
abstract values and placements of its inputs, the configuration) as a dependency of the graph —
sent once per worker — and a stage number. The worker traces the function itself (tracing is
deterministic), plans it with :func:`plan.build_plan`, and keeps the result in a small cache, so
each worker traces a program once. Every stage runs as one ``trellax.jit``-compiled function of
its chunk's NumPy blocks: the stage's equations re-bound with their size parameters fixed for the
chunk, so the compiled program is trellax's own (fused, with trellax's dtypes and rounding).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trellax._src.api import api
from trellax._src.api.api import ShapeDtypeStruct
from trellax._src.config import settings as config
from trellax._src.core import core
from trellax._src.core.jaxpr import ClosedJaxpr, Literal
from trellax._src.dask import plan as plan_mod
from trellax._src.dask import random_window, rules
from trellax._src.dask.rules import Place
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


@dataclass(frozen=True, eq=False)
class ProgramSpec:
    """Everything a worker needs to rebuild a program: the function and its flat inputs'
    abstract values (shape, dtype, weak flag) and placements, the chunk sizes along the chunked
    axis, whether random draws are chunk sources, and the configuration state."""

    token: str
    fun: Callable[..., Any]
    in_tree: PyTreeDef
    in_avals: tuple[tuple[tuple[int, ...], np.dtype[Any], bool], ...]
    in_places: tuple[Place, ...]
    bounds: tuple[int, ...]
    state: config.State
    sources: bool = False
    #: ``tdask.vmap``: the whole function runs on each chunk's rows; outputs chunked along this
    rows_axis: int | None = None

    @property
    def length(self) -> int:
        return sum(self.bounds)


@dataclass
class Program:
    """A traced and planned :class:`ProgramSpec`, with its compiled stage functions."""

    spec: ProgramSpec
    closed: ClosedJaxpr
    out_tree: PyTreeDef
    plan: plan_mod.Plan
    compiled: dict[tuple[str, int], Callable[..., Any]] = field(default_factory=dict)


def trace(spec: ProgramSpec) -> tuple[ClosedJaxpr, PyTreeDef]:
    """The jaxpr of ``spec.fun`` on its abstract inputs."""
    structs = [ShapeDtypeStruct(s, d, w) for s, d, w in spec.in_avals]
    args, kwargs = tree_unflatten(spec.in_tree, structs)
    with config._state(spec.state):
        return api._trace_pytree(spec.fun, tuple(args), kwargs)


_PROGRAMS: OrderedDict[str, Program] = OrderedDict()
_CACHE_SIZE = 64


def program(spec: ProgramSpec, *, warn: bool = False) -> Program:
    """The program of ``spec``, traced and planned once per process."""
    prog = _PROGRAMS.get(spec.token)
    if prog is not None:
        _PROGRAMS.move_to_end(spec.token)
        return prog
    closed, out_tree = trace(spec)
    with config._state(spec.state):
        if spec.rows_axis is not None:
            plan = plan_mod.rows_plan(closed, spec.in_places, spec.rows_axis, spec.length)
        else:
            plan = plan_mod.build_plan(
                closed, spec.in_places, spec.length, sources=spec.sources, warn=warn
            )
    prog = Program(spec, closed, out_tree, plan)
    _PROGRAMS[spec.token] = prog
    while len(_PROGRAMS) > _CACHE_SIZE:
        _PROGRAMS.popitem(last=False)
    return prog


# -- values in and out of compiled stages ---------------------------------------------------------


def _wrap(value: Any, aval: Any) -> Any:
    """A NumPy block as a trellax array with the abstract value's dtype and weak flag."""
    v = np.asarray(value)
    if v.dtype != aval.dtype:
        raise TypeError(
            f"trellax.dask: a block of dtype {v.dtype} arrived where {aval.dtype} was planned"
        )
    return core.new_array(v, aval.dtype, aval.weak_type)


def _unwrap(x: Any) -> np.ndarray[Any, Any]:
    return np.asarray(x)


def _read(env: dict[str, Any], name: str | Literal) -> Any:
    if isinstance(name, Literal):
        return core.new_array(name.value, name.aval.dtype, name.aval.weak_type)
    return env[name]


def _bind(step: plan_mod.Step, ins: list[Any]) -> list[Any]:
    params = step.eqn.params
    if step.fix is not None:
        params = step.fix(params, [tuple(np.shape(x)) for x in ins])
    prim = step.eqn.primitive
    if prim.multiple_results:
        return list(prim.bind_multi(*ins, **params))
    return [prim.bind(*ins, **params)]


def _prim(name: str) -> Any:
    return core.primitives()[name]


def _partial(step: plan_mod.Step, ins: list[Any], offset: Any) -> list[Any]:
    """The per-chunk partial of a reduction over the chunked axis (in the accumulation dtype)."""
    eqn = step.eqn
    name = eqn.primitive.name
    convert = _prim("convert_element_type")
    if name in ("argmax", "argmin"):
        (x,) = ins
        extreme = _prim("reduce_max" if name == "argmax" else "reduce_min")
        value = extreme.bind(x, axes=tuple(eqn.params["axes"]))
        index = eqn.primitive.bind(x, **eqn.params)
        off = convert.bind(offset, new_dtype=index.dtype, weak_type=False)
        return [value, _prim("add").bind(index, off)]
    out_dtype = eqn.outvars[0].aval.dtype
    acc = rules.accumulation_dtype(out_dtype) if name in rules.ACCUMULATING else out_dtype
    if name == "dot_general":
        params = {**eqn.params, "preferred_element_type": acc}
        return [eqn.primitive.bind(*ins, **params)]
    (x,) = ins
    if x.dtype != acc:
        x = convert.bind(x, new_dtype=acc, weak_type=False)
    return [eqn.primitive.bind(x, **eqn.params)]


def _combine_values(red: plan_mod.Reduction, parts: Sequence[Sequence[Any]]) -> list[Any]:
    """Combines partials (in chunk order) with trellax's primitives: a left fold."""
    name = red.eqn.primitive.name
    if name in ("argmax", "argmin"):
        value, index = parts[0]
        better = _prim("gt" if name == "argmax" else "lt")
        select = _prim("select_n")
        floating = np.dtype(value.dtype).kind in "fc" or np.dtype(value.dtype).kind == "V"
        for v, i in parts[1:]:
            take = better.bind(v, value)
            if floating:  # NaN wins (the first NaN, as one process finds it)
                ne = _prim("ne")
                v_nan = ne.bind(v, v)
                value_nan = ne.bind(value, value)
                take = _prim("or").bind(
                    take, _prim("and").bind(v_nan, _prim("not").bind(value_nan))
                )
                take = _prim("and").bind(take, _prim("not").bind(value_nan))
            value = select.bind(take, value, v)
            index = select.bind(take, index, i)
        return [value, index]
    op = _prim("add" if name == "dot_general" else rules.REDUCTIONS[name])
    (acc,) = parts[0]
    for (p,) in parts[1:]:
        acc = op.bind(acc, p)
    return [acc]


def _finish(red: plan_mod.Reduction, combined: list[Any]) -> Any:
    """The reduction's result from the combined partials."""
    name = red.eqn.primitive.name
    if name in ("argmax", "argmin"):
        return combined[1]
    (acc,) = combined
    aval = red.eqn.outvars[0].aval
    if acc.dtype != aval.dtype:
        acc = _prim("convert_element_type").bind(acc, new_dtype=aval.dtype, weak_type=False)
    return acc


# -- the task entry points (module-level functions: Dask pickles them by reference) -------------


def _compiled(prog: Program, key: tuple[str, int], make: Callable[[], Callable[..., Any]]) -> Any:
    fn = prog.compiled.get(key)
    if fn is None:
        fn = prog.compiled[key] = api.jit(make())
    return fn


def run_repl_stage(spec: ProgramSpec, level: int, *values: Any) -> tuple[Any, ...]:
    """Runs stage ``level``'s replicated equations (once)."""
    prog = program(spec)
    plan = prog.plan
    stage = plan.stages[level]

    def make() -> Callable[..., Any]:
        def run(*ins: Any) -> list[Any]:
            env = dict(zip(stage.repl_inputs, ins))
            for step in stage.repl:
                outs = _bind(step, [_read(env, n) for n in step.ins])
                env.update(zip(step.outs, outs))
            return [env[n] for n in stage.repl_outputs]

        return run

    with config._state(spec.state):
        fn = _compiled(prog, ("repl", level), make)
        ins = [_wrap(v, plan.avals[n]) for n, v in zip(stage.repl_inputs, values)]
        return tuple(_unwrap(o) for o in fn(*ins))


def constants(spec: ProgramSpec) -> tuple[Any, ...]:
    """The program's closed-over constants (a replicated task of their own)."""
    prog = program(spec)
    return tuple(_unwrap(c) for c in prog.closed.consts)


def run_chunk_stage(
    spec: ProgramSpec, level: int, start: int, rows: int, *values: Any
) -> tuple[Any, ...]:
    """Runs stage ``level``'s chunk-local equations and partials on one chunk, whose rows
    along the chunked axis are ``start:start + rows``. ``values`` are the stage's chunked
    inputs (blocks) then its replicated inputs."""
    prog = program(spec)
    plan = prog.plan
    stage = plan.stages[level]
    sources = [s for s in stage.chunk if s.kind == "source"]

    def make() -> Callable[..., Any]:
        if spec.rows_axis is not None:
            return functools.partial(_run_rows, prog)

        def run(offset: Any, *ins: Any) -> list[Any]:
            names = [*stage.chunk_inputs, *stage.chunk_repl_inputs, *(s.outs[0] for s in sources)]
            env = dict(zip(names, ins))
            for step in stage.chunk:
                if step.kind == "source":
                    continue
                args = [_read(env, n) for n in step.ins]
                if step.kind == "partial":
                    outs = _partial(step, args, offset)
                else:
                    outs = _bind(step, args)
                env.update(zip(step.outs, outs))
            return [env[n] for n in stage.chunk_outputs]

        return run

    with config._state(spec.state):
        fn = _compiled(prog, ("chunk", level), make)
        names = [*stage.chunk_inputs, *stage.chunk_repl_inputs]
        ins = [_wrap(v, plan.avals[n]) for n, v in zip(names, values)]
        env = dict(zip(names, values))
        drawn = []
        for s in sources:
            operands = [n.value if isinstance(n, Literal) else env[n] for n in s.ins]
            rows_drawn = _draw_rows(s, operands, start, rows)
            drawn.append(core.new_array(rows_drawn, s.eqn.outvars[0].aval.dtype, False))
        index_dtype = np.dtype(np.int64 if spec.state.x64 else np.int32)
        offset = core.new_array(np.array(start, index_dtype), index_dtype, False)
        return tuple(_unwrap(o) for o in fn(offset, *ins, *drawn))


def _run_rows(prog: Program, offset: Any, *ins: Any) -> list[Any]:
    """A row-mapped program on one chunk: the function itself on the chunk's arguments."""
    del offset
    stage = prog.plan.stages[0]
    env = dict(zip([*stage.chunk_inputs, *stage.chunk_repl_inputs], ins))
    leaves = [env[n] for n in prog.plan.inputs]
    args, kwargs = tree_unflatten(prog.spec.in_tree, leaves)
    out_leaves, _ = tree_flatten(prog.spec.fun(*args, **kwargs))
    return list(out_leaves)


def _draw_rows(step: plan_mod.Step, operands: list[Any], start: int, rows: int) -> Any:
    """Rows ``start:start + rows`` of a random source's whole draw."""
    return random_window.draw_rows(step.eqn, [np.asarray(o) for o in operands], start, rows)


def combine(spec: ProgramSpec, index: int, final: bool, *parts: Any) -> Any:
    """Combines the partials ``parts`` (flattened, chunk order) of reduction ``index``; the
    last combination returns the reduction's result."""
    prog = program(spec)
    red = prog.plan.reductions[index]
    k = len(red.partials)
    groups = [parts[i : i + k] for i in range(0, len(parts), k)]

    def make() -> Callable[..., Any]:
        def run(*flat: Any) -> Any:
            gs = [flat[i : i + k] for i in range(0, len(flat), k)]
            combined = _combine_values(red, gs)
            return _finish(red, combined) if final else combined

        return run

    with config._state(spec.state):
        fn = _compiled(prog, (f"combine{int(final)}", index), make)
        flat: list[Any] = []
        for g in groups:
            flat.extend(core.new_array(np.asarray(p), np.asarray(p).dtype, False) for p in g)
        out = fn(*flat)
        if final:
            return _unwrap(out)
        return tuple(_unwrap(o) for o in out)


def gather(axis: int, *blocks: Any) -> Any:
    """The chunks of a chunked value, joined along its axis."""
    return np.concatenate([np.asarray(b) for b in blocks], axis=axis)


def split(value: Any, axis: int, start: int, stop: int) -> Any:
    """Rows ``start:stop`` of a replicated value along ``axis``."""
    index = [slice(None)] * np.ndim(value)
    index[axis] = slice(start, stop)
    return np.asarray(value)[tuple(index)]


def pick(values: tuple[Any, ...], i: int) -> Any:
    """Output ``i`` of a stage task."""
    return values[i]
