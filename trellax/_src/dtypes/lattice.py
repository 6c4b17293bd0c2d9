"""A generic, validated partial order with joins, built from a dict of immediate successors.

This module knows nothing about dtypes. A lattice is given as data::

    >>> lat = Lattice({"b": ["i"], "i": ["f"], "u": ["f"], "f": []})
    >>> lat.join("b", "u")
    'f'
    >>> lat.leq("b", "f")
    True
    >>> lat.explain("b", "u").chains
    (('b', 'i', 'f'), ('u', 'f'))

The reflexive-transitive closure (each node's set of upper bounds) is computed once. A cycle, or a
pair of nodes whose common upper bounds have more than one minimal element, is refused with a
:class:`LatticeError` that names the nodes and the candidates. Pairs with *no* common upper bound
are allowed: they are the "no implicit promotion" cases (``join`` raises :class:`NoJoinError`).
Strictly speaking the structure is then a partial join-semilattice; we call it a lattice, as the
type-promotion literature does.

``check_table`` goes the other way: given any binary promotion function (NumPy's, say), it reports
where the algebraic laws of a join fail and, when they all hold, recovers the Hasse diagram of the
partial order whose join the function is.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

N = TypeVar("N", bound=Hashable)


class LatticeError(ValueError):
    """The successor dict does not describe a valid lattice (a cycle, or an ambiguous join)."""


class NoJoinError(LatticeError):
    """The given nodes have no common upper bound."""

    def __init__(self, nodes: tuple[object, ...]) -> None:
        super().__init__(f"nodes {nodes!r} have no common upper bound")
        self.nodes = nodes


class Lattice(Generic[N]):
    """A partial order given by immediate successors, with cached n-ary joins."""

    __slots__ = ("_hasse", "_join_cache", "_order", "_up", "name")

    def __init__(self, successors: Mapping[N, Iterable[N]], *, name: str = "lattice") -> None:
        self.name = name
        succ: dict[N, tuple[N, ...]] = {n: tuple(s) for n, s in successors.items()}
        missing = [s for ss in succ.values() for s in ss if s not in succ]
        if missing:
            raise LatticeError(
                f"{name}: successor(s) {_fmt(missing)} are not keys of the successor dict; "
                "list every node as a key (use an empty list for maximal nodes)"
            )
        self._order: tuple[N, ...] = tuple(succ)
        self._up: dict[N, frozenset[N]] = _closure(succ, name)
        self._hasse: dict[N, tuple[N, ...]] | None = None
        self._join_cache: dict[frozenset[N], N] = {}
        self._validate()

    # -- queries -------------------------------------------------------------------------------

    @property
    def nodes(self) -> tuple[N, ...]:
        """All nodes, in the order of the successor dict."""
        return self._order

    def __contains__(self, node: object) -> bool:
        return node in self._up

    def upper_bounds(self, node: N) -> frozenset[N]:
        """Every node ``m`` with ``node <= m`` (including ``node`` itself)."""
        try:
            return self._up[node]
        except KeyError:
            raise KeyError(f"{node!r} is not a node of {self.name}") from None

    def leq(self, a: N, b: N) -> bool:
        """True if ``a`` promotes to ``b`` (``a <= b`` in the order)."""
        return b in self.upper_bounds(a)

    def join(self, *nodes: N) -> N:
        """The least upper bound of ``nodes``; raises :class:`NoJoinError` if there is none."""
        key = frozenset(nodes)
        try:
            return self._join_cache[key]
        except KeyError:
            pass
        if not key:
            raise ValueError("join() needs at least one node")
        candidates = self._least_common_bounds(key)
        if not candidates:
            raise NoJoinError(tuple(nodes))
        # _validate() guarantees uniqueness for pairs, and by induction for any number of nodes.
        (result,) = candidates
        self._join_cache[key] = result
        return result

    def try_join(self, *nodes: N) -> N | None:
        """Like :meth:`join` but returns None when there is no common upper bound."""
        try:
            return self.join(*nodes)
        except NoJoinError:
            return None

    def table(self, nodes: Sequence[N] | None = None) -> dict[N, dict[N, N | None]]:
        """The binary join table over ``nodes`` (default: all); ``None`` marks "no join"."""
        ns = self._order if nodes is None else tuple(nodes)
        return {a: {b: self.try_join(a, b) for b in ns} for a in ns}

    def hasse(self) -> dict[N, tuple[N, ...]]:
        """The transitive reduction: each node's immediate successors, with redundant edges dropped."""
        if self._hasse is None:
            self._hasse = {n: self._covers(n) for n in self._order}
        return dict(self._hasse)

    def explain(self, *nodes: N) -> Explanation[N]:
        """The join of ``nodes`` and, for each input, a chain of Hasse edges from it up to the join."""
        result = self.join(*nodes)
        hasse = self.hasse()
        chains = tuple(_path(hasse, n, result, self._up) for n in nodes)
        return Explanation(inputs=tuple(nodes), join=result, chains=chains)

    # -- internals ------------------------------------------------------------------------------

    def _least_common_bounds(self, key: frozenset[N]) -> list[N]:
        it = iter(key)
        common = set(self._up[next(it)])
        for n in it:
            common &= self._up[n]
        return [c for c in common if common <= self._up[c]]

    def _covers(self, n: N) -> tuple[N, ...]:
        above = self._up[n] - {n}
        return tuple(
            m for m in self._order if m in above and not any(m in self._up[k] for k in above - {m})
        )

    def _validate(self) -> None:
        for a, b in itertools.combinations(self._order, 2):
            common = self._up[a] & self._up[b]
            if not common:
                continue
            least = [c for c in common if common <= self._up[c]]
            if len(least) != 1:
                minimal = sorted(
                    (c for c in common if not any(c in self._up[d] for d in common - {c})),
                    key=self._order.index,
                )
                raise LatticeError(
                    f"{self.name}: nodes {a!r} and {b!r} have no unique least upper bound; "
                    f"the minimal common upper bounds are {_fmt(minimal)}"
                )


@dataclass(frozen=True)
class Explanation(Generic[N]):
    """Why ``join(*inputs)`` is what it is: one chain of Hasse edges per input."""

    inputs: tuple[N, ...]
    join: N
    chains: tuple[tuple[N, ...], ...]

    def format(self, name: Callable[[N], str] = str) -> str:
        lines = [f"join({', '.join(name(n) for n in self.inputs)}) = {name(self.join)}"]
        for chain in self.chains:
            lines.append("  " + " -> ".join(name(n) for n in chain))
        return "\n".join(lines)


def _closure(succ: Mapping[N, tuple[N, ...]], name: str) -> dict[N, frozenset[N]]:
    """Reflexive-transitive closure by depth-first search, refusing cycles."""
    up: dict[N, frozenset[N]] = {}
    visiting: list[N] = []

    def visit(n: N) -> frozenset[N]:
        if n in up:
            return up[n]
        if n in visiting:
            cycle = [*visiting[visiting.index(n) :], n]
            raise LatticeError(f"{name}: cycle " + " -> ".join(repr(c) for c in cycle))
        visiting.append(n)
        acc = {n}
        for s in succ[n]:
            acc |= visit(s)
        visiting.pop()
        up[n] = frozenset(acc)
        return up[n]

    for n in succ:
        visit(n)
    return up


def _path(
    hasse: Mapping[N, tuple[N, ...]], start: N, goal: N, up: Mapping[N, frozenset[N]]
) -> tuple[N, ...]:
    """A shortest chain of Hasse edges from ``start`` to ``goal`` (breadth-first)."""
    frontier: list[tuple[N, ...]] = [(start,)]
    seen = {start}
    while frontier:
        nxt: list[tuple[N, ...]] = []
        for chain in frontier:
            last = chain[-1]
            if last == goal:
                return chain
            for s in hasse[last]:
                if s not in seen and goal in up[s]:
                    seen.add(s)
                    nxt.append((*chain, s))
        frontier = nxt
    raise AssertionError(f"no chain from {start!r} to {goal!r}")  # unreachable: goal >= start


def _same(a: object, b: object) -> bool:
    """Equality that never confuses "no result" (None) with a node: NumPy says
    ``np.dtype('float64') == None`` is True."""
    if a is None or b is None:
        return a is b
    return bool(a == b)


def _fmt(nodes: Iterable[object]) -> str:
    return "[" + ", ".join(repr(n) for n in nodes) + "]"


# -- checking an arbitrary promotion function ----------------------------------------------------


@dataclass
class TableReport(Generic[N]):
    """What :func:`check_table` found. Each counterexample is a tuple of inputs and results."""

    nodes: tuple[N, ...]
    commutativity: list[tuple[N, N, N | None, N | None]] = field(default_factory=list)
    idempotence: list[tuple[N, N | None]] = field(default_factory=list)
    associativity: list[tuple[N, N, N, N | None, N | None]] = field(default_factory=list)
    hasse: dict[N, tuple[N, ...]] | None = None
    why_not_lattice: str | None = None

    @property
    def is_lattice_join(self) -> bool:
        """True if the table is exactly the join of some partial order (``hasse`` is that order)."""
        return self.hasse is not None


def check_table(
    nodes: Sequence[N],
    promote: Callable[[N, N], N],
    *,
    errors: tuple[type[BaseException], ...] = (Exception,),
    max_examples: int | None = None,
) -> TableReport[N]:
    """Checks whether ``promote`` behaves as the join of a lattice on ``nodes``.

    ``promote(a, b)`` may raise one of ``errors`` to mean "no promotion"; that counts as a result
    (``None``) in the laws. Results outside ``nodes`` are allowed and are promoted further when
    associativity is checked. Reports failures of commutativity (``a∘b != b∘a``), idempotence
    (``a∘a != a``) and associativity (``(a∘b)∘c != a∘(b∘c)``), each with counterexamples; when all
    three hold, derives the order ``a <= b  iff  a∘b == b`` and returns its Hasse diagram if the
    table is exactly that order's join.
    """
    memo: dict[tuple[N, N], N | None] = {}

    def op(a: N | None, b: N | None) -> N | None:
        if a is None or b is None:
            return None
        key = (a, b)
        if key not in memo:
            try:
                memo[key] = promote(a, b)
            except errors:
                memo[key] = None
        return memo[key]

    ns = tuple(nodes)
    report: TableReport[N] = TableReport(nodes=ns)

    def full(lst: list[object]) -> bool:
        return max_examples is not None and len(lst) >= max_examples

    for a in ns:
        r = op(a, a)
        if not _same(r, a) and not full(report.idempotence):  # type: ignore[arg-type]
            report.idempotence.append((a, r))
    for a, b in itertools.combinations(ns, 2):
        ab, ba = op(a, b), op(b, a)
        if not _same(ab, ba) and not full(report.commutativity):  # type: ignore[arg-type]
            report.commutativity.append((a, b, ab, ba))
    for a, b, c in itertools.product(ns, repeat=3):
        left, right = op(op(a, b), c), op(a, op(b, c))
        if not _same(left, right) and not full(report.associativity):  # type: ignore[arg-type]
            report.associativity.append((a, b, c, left, right))

    if report.commutativity or report.idempotence or report.associativity:
        report.why_not_lattice = "the table breaks " + ", ".join(
            law
            for law, bad in (
                ("commutativity", report.commutativity),
                ("idempotence", report.idempotence),
                ("associativity", report.associativity),
            )
            if bad
        )
        return report

    # A commutative, associative, idempotent operation is the join of the order a <= b iff a∘b == b.
    domain = list(ns)
    for a, b in itertools.product(ns, repeat=2):
        r = op(a, b)
        if r is not None and r not in domain:
            domain.append(r)
    succ = {a: [b for b in domain if not _same(b, a) and _same(op(a, b), b)] for a in domain}
    try:
        order = Lattice(succ, name="recovered order")
    except LatticeError as e:
        report.why_not_lattice = f"the derived order is not a lattice: {e}"
        return report
    for a, b in itertools.product(ns, repeat=2):
        if not _same(order.try_join(a, b), op(a, b)):
            report.why_not_lattice = (
                f"promote({a!r}, {b!r}) = {op(a, b)!r} but the derived order's join is "
                f"{order.try_join(a, b)!r}"
            )
            return report
    report.hasse = order.hasse()
    return report
