"""The plan of a program over chunked values: which equations run per chunk, which reduce across
chunks, which gather, grouped into stages.

A program is a jaxpr whose inputs are chunked (along one axis each, with the same chunk sizes) or
replicated. Walking its equations in order, each gets one of four roles:

* ``repl``: every operand is replicated, so it runs once, in a replicated stage;
* ``local``: :func:`rules.local_rule` says it runs chunk by chunk (replicated operands that are
  as long as the chunked axis are *split* into matching chunks first);
* ``reduce``: a reduction or contraction over the chunked axis: its per-chunk *partial* (in the
  accumulation dtype) is computed in the chunk stage, and the partials are combined across chunks
  into a replicated value;
* ``gather``: anything else: its chunked operands are concatenated into one replicated value
  (with a warning naming the primitive and the bytes moved), then it runs as ``repl``.

Every value gets a *level*: inputs are at level 0; a local or repl equation is at the highest level
of its operands; a combined reduction or a gathered value is one level above the chunk stage that
produced its parts. Stage ``L`` is then "the repl equations of level ``L``, then the local
equations and partials of level ``L``", and the plan runs the stages in level order.

The plan is a pure function of the jaxpr and the placements, so a worker that re-traces the same
function gets the same plan (tasks name stages by number, never ship jaxprs).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from trellax._src.dask import random_window, rules
from trellax._src.dask.rules import ParamFix, Place

#: Primitives that draw random numbers of a shape given by their parameters; in a program built
#: by ``tdask.random`` they are *sources*: each chunk draws its own rows of the whole draw.
RANDOM_SOURCES = frozenset({"random_bits", "random_uniform", "random_normal"})


class ChunkingWarning(UserWarning):
    """An equation of a ``tdask`` program could not run chunk by chunk: its chunked operands
    are gathered into one task (the message names the primitive and the bytes moved)."""


@dataclass
class Step:
    """One equation's part in a stage: ``kind`` is ``local``, ``source``, ``partial`` or
    ``repl``; ``ins`` names its operands (a :class:`Literal` stays itself), ``outs`` its results
    (the partials' names for a ``partial``); ``fix`` rewrites size parameters for a chunk."""

    kind: str
    eqn: JaxprEqn
    index: int
    ins: list[str | Literal]
    outs: list[str]
    fix: ParamFix | None = None
    places: tuple[Place, ...] = ()


@dataclass
class Reduction:
    """A reduction over the chunked axis: its equation, the partial values' names, the level
    of its chunk stage and the name of the combined (replicated) result."""

    eqn: JaxprEqn
    index: int
    places: tuple[Place, ...]
    level: int
    partials: tuple[str, ...]
    result: str


@dataclass
class Stage:
    """The equations of one level: replicated ones, then chunk-local ones with partials."""

    level: int
    repl: list[Step] = field(default_factory=list)
    chunk: list[Step] = field(default_factory=list)
    repl_inputs: list[str] = field(default_factory=list)
    repl_outputs: list[str] = field(default_factory=list)
    chunk_inputs: list[str] = field(default_factory=list)  # chunked values (blocks)
    chunk_repl_inputs: list[str] = field(default_factory=list)  # replicated values
    chunk_outputs: list[str] = field(default_factory=list)  # chunked values and partials


@dataclass
class Plan:
    """Stages by level, the reductions, gathers and splits between them, and the names of the
    program's outputs (``c<n>``/``s<n>_<axis>``: chunked, axis in :attr:`axis`; ``r<n>``:
    replicated; a :class:`Literal` output stays itself)."""

    closed: ClosedJaxpr
    stages: list[Stage]
    reductions: list[Reduction]
    gathers: dict[str, tuple[str, int]]  # replicated name -> (chunked name, axis)
    splits: dict[str, tuple[str, int]]  # chunked name -> (replicated name, axis)
    axis: dict[str, int]  # chunked name -> its chunked axis
    level: dict[str, int]
    inputs: list[str]
    outputs: list[str | Literal]
    avals: dict[str, Any]
    length: int

    def is_chunked(self, name: str) -> bool:
        return name in self.axis


def build_plan(
    closed: ClosedJaxpr,
    in_places: tuple[Place, ...],
    length: int,
    *,
    sources: bool = False,
    warn: bool = True,
) -> Plan:
    """Plans ``closed`` for inputs placed as ``in_places``; chunked axes have ``length``
    elements. ``sources`` makes random draws of leading size ``length`` chunk sources."""
    jaxpr = closed.jaxpr
    planner = _Planner(jaxpr, length, sources, warn)
    for v in jaxpr.constvars:
        planner.define(v, None, 0)
    inputs = [planner.define(v, p, 0) for v, p in zip(jaxpr.invars, in_places)]
    for index, eqn in enumerate(jaxpr.eqns):
        planner.plan_equation(index, eqn)
    outputs: list[str | Literal] = [
        a if isinstance(a, Literal) else planner.name_of(a) for a in jaxpr.outvars
    ]
    level = planner.level
    n_levels = 1 + max([0, *level.values()])
    stages = [Stage(lv) for lv in range(n_levels)]
    for lv, where, step in planner.steps:
        (stages[lv].repl if where == "repl" else stages[lv].chunk).append(step)
    plan = Plan(
        closed,
        stages,
        planner.reductions,
        planner.gathers,
        planner.splits,
        planner.axis,
        level,
        inputs,
        outputs,
        planner.avals,
        length,
    )
    _wire(plan)
    return plan


class _Planner:
    """The state of :func:`build_plan` while it walks the equations: each value's place, level,
    chunked axis and aval by name, the gathers, splits and reductions between stages, and the
    steps with their level."""

    def __init__(self, jaxpr: Jaxpr, length: int, sources: bool, warn: bool) -> None:
        self.length, self.sources, self.warn = length, sources, warn
        self.ids: dict[int, int] = {}
        for v in [*jaxpr.constvars, *jaxpr.invars, *(o for e in jaxpr.eqns for o in e.outvars)]:
            self.ids[id(v)] = len(self.ids)
        self.place: dict[int, Place] = {}
        self.level: dict[str, int] = {}
        self.axis: dict[str, int] = {}
        self.avals: dict[str, Any] = {}
        self.gathers: dict[str, tuple[str, int]] = {}
        self.splits: dict[str, tuple[str, int]] = {}
        self.reductions: list[Reduction] = []
        self.steps: list[tuple[int, str, Step]] = []  # (level, "repl" | "chunk", step)

    def name_of(self, v: Var) -> str:
        ids, place = self.ids, self.place
        return f"r{ids[id(v)]}" if place[id(v)] is None else f"c{ids[id(v)]}"

    def define(self, v: Var, p: Place, lv: int) -> str:
        self.place[id(v)] = p
        name = self.name_of(v)
        self.level[name] = lv
        self.avals[name] = v.aval
        if p is not None:
            self.axis[name] = p
        return name

    def replicated(self, v: Var) -> str:
        """The replicated value of ``v`` (gathering a chunked one)."""
        ids, place, level = self.ids, self.place, self.level
        if place[id(v)] is None:
            return self.name_of(v)
        name = f"r{ids[id(v)]}"
        if name not in level:
            src = self.name_of(v)
            self.gathers[name] = (src, self.axis[src])
            level[name] = level[src] + 1
            self.avals[name] = v.aval
        return name

    def operand(self, a: Atom, p: Place) -> str | Literal:
        """What a chunk stage reads for operand ``a`` placed at ``p`` (a split copy of a
        replicated value when the plan chunks it)."""
        ids, place, level = self.ids, self.place, self.level
        if isinstance(a, Literal):
            return a
        if p is None or place[id(a)] is not None:
            return self.name_of(a)
        name = f"s{ids[id(a)]}_{p}"
        if name not in level:
            src = self.name_of(a)
            self.splits[name] = (src, p)
            level[name] = level[src]
            self.axis[name] = p
            self.avals[name] = a.aval
        return name

    def in_level(self, ins: list[str | Literal]) -> int:
        return max((self.level[n] for n in ins if isinstance(n, str)), default=0)

    def plan_equation(self, index: int, eqn: JaxprEqn) -> None:
        """Gives ``eqn`` its role (see the module doc) and its step."""
        place = self.place
        places = tuple(None if isinstance(a, Literal) else place[id(a)] for a in eqn.invars)
        if all(p is None for p in places):
            self.plan_replicated(index, eqn, places)
            return
        local = rules.local_rule(eqn, places)
        if local is None and rules.is_elementwise(eqn):
            local, places = _split_elementwise(eqn, places, self.length)
        if local is not None:
            ins = [self.operand(a, p) for a, p in zip(eqn.invars, places)]
            lv = self.in_level(ins)
            out_places, fix = local
            outs = [self.define(o, p, lv) for o, p in zip(eqn.outvars, out_places)]
            self.steps.append((lv, "chunk", Step("local", eqn, index, ins, outs, fix, places)))
            return
        if eqn.primitive.name == "dot_general":
            partner = rules.dot_contracting_partner(eqn, places)
            if partner is not None:
                i, ax = partner
                p = list(places)
                p[i] = ax
                places = tuple(p)
        if rules.reduces_chunk_axis(eqn, places):
            self.plan_reduction(index, eqn, places)
        else:
            self.plan_gathered(index, eqn, places)

    def plan_replicated(self, index: int, eqn: JaxprEqn, places: tuple[Place, ...]) -> None:
        """Every operand replicated: a repl step, or a chunk source for a random draw."""
        ins = [self.operand(a, None) for a in eqn.invars]
        lv = self.in_level(ins)
        is_source = self.sources and eqn.primitive.name in RANDOM_SOURCES
        if is_source and _is_source(eqn, self.length):
            outs = [self.define(o, 0, lv) for o in eqn.outvars]
            self.steps.append((lv, "chunk", Step("source", eqn, index, ins, outs, None, places)))
        else:
            outs = [self.define(o, None, lv) for o in eqn.outvars]
            self.steps.append((lv, "repl", Step("repl", eqn, index, ins, outs, None, places)))

    def plan_reduction(self, index: int, eqn: JaxprEqn, places: tuple[Place, ...]) -> None:
        """A reduction over the chunked axis: partials per chunk, combined one level up."""
        ins = [self.operand(a, p) for a, p in zip(eqn.invars, places)]
        lv = self.in_level(ins)
        n_parts = 2 if eqn.primitive.name in ("argmax", "argmin") else 1
        partials = tuple(f"p{index}_{k}" for k in range(n_parts))
        for pname in partials:
            self.level[pname] = lv
        (out,) = eqn.outvars
        result = self.define(out, None, lv + 1)
        self.reductions.append(Reduction(eqn, index, places, lv, partials, result))
        self.steps.append(
            (lv, "chunk", Step("partial", eqn, index, ins, list(partials), None, places))
        )

    def plan_gathered(self, index: int, eqn: JaxprEqn, places: tuple[Place, ...]) -> None:
        """Anything else: gather the chunked operands, run once (with a warning)."""
        moved = sum(
            int(np.prod(a.aval.shape)) * a.aval.dtype.itemsize
            for a, p in zip(eqn.invars, places)
            if p is not None
        )
        if self.warn:
            warnings.warn(
                f"trellax.dask: '{eqn.primitive.name}' does not run chunk by chunk "
                f"({_describe(eqn, places)}); its chunked operands are gathered into one task "
                f"({moved / 2**20:.1f} MiB moved to and held by one worker)",
                ChunkingWarning,
                stacklevel=7,  # the user's call, above build_plan and plan_equation
            )
        ins = [a if isinstance(a, Literal) else self.replicated(a) for a in eqn.invars]
        lv = self.in_level(ins)
        outs = [self.define(o, None, lv) for o in eqn.outvars]
        nones = tuple(None for _ in places)
        self.steps.append((lv, "repl", Step("repl", eqn, index, ins, outs, None, nones)))


def _is_source(eqn: JaxprEqn, length: int) -> bool:
    (out,) = eqn.outvars
    shape = out.aval.shape
    return bool(shape) and shape[0] == length and random_window.is_window_source(eqn)


def _describe(eqn: JaxprEqn, places: tuple[Place, ...]) -> str:
    parts = []
    for a, p in zip(eqn.invars, places):
        if p is not None:
            parts.append(f"{a.aval.str_short()} chunked along axis {p}")
    params = ", ".join(f"{k}={v}" for k, v in sorted(eqn.params.items()) if _short(v))
    return "; ".join(parts) + (f"; {params}" if params else "")


def _short(v: Any) -> bool:
    return isinstance(v, int | str | tuple | np.dtype) and len(str(v)) < 60


def _split_elementwise(
    eqn: JaxprEqn, places: tuple[Place, ...], length: int
) -> tuple[tuple[list[Place], ParamFix | None] | None, tuple[Place, ...]]:
    """An elementwise equation whose replicated operands are as long as the chunked axis: the
    plan splits them into chunks."""
    axes = {p for p in places if p is not None}
    if len(axes) != 1:
        return None, places
    (a,) = axes
    new: list[Place] = []
    for atom, p in zip(eqn.invars, places):
        shape = atom.aval.shape
        if p is None and isinstance(atom, Var) and shape and shape[a] == length:
            new.append(a)
        else:
            new.append(p)
    places = tuple(new)
    return rules.local_rule(eqn, places), places


def _wire(plan: Plan) -> None:
    """Fills each stage's inputs and outputs: the names it reads that it does not produce, and
    the names it produces that other stages, reductions, gathers or the outputs read."""
    read_elsewhere: dict[str, set[int]] = {}  # name -> ids of the readers (stage halves)

    def note(name: str | Literal, reader: int) -> None:
        if isinstance(name, str):
            read_elsewhere.setdefault(name, set()).add(reader)

    for st in plan.stages:
        for half, steps in ((2 * st.level, st.repl), (2 * st.level + 1, st.chunk)):
            for step in steps:
                for n in step.ins:
                    note(n, half)
    for r in plan.reductions:
        for n in r.partials:
            note(n, -1)
    for src, _ in plan.gathers.values():
        note(src, -1)
    for src, _ in plan.splits.values():
        note(src, -1)
    for n in plan.outputs:
        note(n, -1)

    for st in plan.stages:
        for half, steps, ins, outs in (
            (2 * st.level, st.repl, st.repl_inputs, st.repl_outputs),
            (2 * st.level + 1, st.chunk, st.chunk_inputs, st.chunk_outputs),
        ):
            produced: set[str] = set()
            for step in steps:
                for n in step.ins:
                    if isinstance(n, str) and n not in produced and n not in ins:
                        ins.append(n)
                for n in step.outs:
                    produced.add(n)
                    if read_elsewhere.get(n, set()) - {half}:
                        outs.append(n)
        st.chunk_repl_inputs[:] = [n for n in st.chunk_inputs if not plan.is_chunked(n)]
        st.chunk_inputs[:] = [n for n in st.chunk_inputs if plan.is_chunked(n)]


def rows_plan(
    closed: ClosedJaxpr, in_places: tuple[Place, ...], out_axis: int, length: int
) -> Plan:
    """The plan of a row-mapped function (``tdask.vmap``): one chunk stage that runs the whole
    function on each chunk's rows; outputs chunked along ``out_axis``."""
    jaxpr = closed.jaxpr
    avals: dict[str, Any] = {}
    axis: dict[str, int] = {}
    inputs = []
    for i, (v, p) in enumerate(zip(jaxpr.invars, in_places)):
        name = f"r{i}" if p is None else f"c{i}"
        avals[name] = v.aval
        if p is not None:
            axis[name] = p
        inputs.append(name)
    outputs: list[str | Literal] = []
    for j, aval in enumerate(closed.out_avals):
        name = f"c{len(inputs) + j}"
        avals[name] = aval
        axis[name] = out_axis % max(len(aval.shape), 1)
        outputs.append(name)
    stage = Stage(0)
    stage.chunk_inputs = [n for n in inputs if n in axis]
    stage.chunk_repl_inputs = [n for n in inputs if n not in axis]
    stage.chunk_outputs = [n for n in outputs if isinstance(n, str)]
    level = dict.fromkeys(avals, 0)
    return Plan(closed, [stage], [], {}, {}, axis, level, inputs, outputs, avals, length)
