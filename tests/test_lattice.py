"""The generic lattice (``trellax._src.dtypes.lattice``): construction, validation, queries, check_table.

Small hand-made lattices pin the messages and the queries; hypothesis-generated random DAGs check
the construction against brute-force oracles written here from the definitions.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Hashable, Mapping, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trellax._src.dtypes.lattice import (
    Lattice,
    LatticeError,
    NoJoinError,
    TableReport,
    check_table,
)

# b < i < f, b < u < f: the docstring's example.
SMALL = {"b": ["i"], "i": ["f"], "u": ["f"], "f": []}
# A diamond with a tail: bot < {x, y} < top < tail.
DIAMOND = {"bot": ["x", "y"], "x": ["top"], "y": ["top"], "top": ["tail"], "tail": []}
# Two components: no join across them.
SPLIT = {"a": ["a2"], "a2": [], "z": []}


# -- oracles, from the definitions ----------------------------------------------------------------


def reach(succ: Mapping[Hashable, Sequence[Hashable]]) -> dict[Hashable, set[Hashable]]:
    """Reflexive-transitive closure by iterating to a fixed point (no DFS, no cycle check)."""
    up = {n: {n, *succ[n]} for n in succ}
    changed = True
    while changed:
        changed = False
        for n in succ:
            new = set().union(*(up[m] for m in up[n]))
            if new != up[n]:
                up[n], changed = new, True
    return up


def has_cycle(succ: Mapping[Hashable, Sequence[Hashable]]) -> bool:
    up = reach(succ)
    return any(n in up[s] for n in succ for s in succ[n])


def least(common: set[Hashable], up: Mapping[Hashable, set[Hashable]]) -> list[Hashable]:
    """Elements of ``common`` below every element of ``common``."""
    return [c for c in common if common <= up[c]]


def minimal(common: set[Hashable], up: Mapping[Hashable, set[Hashable]]) -> set[Hashable]:
    return {c for c in common if not any(c in up[d] for d in common - {c})}


def ambiguous_pairs(succ: Mapping[Hashable, Sequence[Hashable]]) -> list[tuple[Hashable, ...]]:
    up = reach(succ)
    return [
        (a, b)
        for a, b in itertools.combinations(succ, 2)
        if (up[a] & up[b]) and len(least(up[a] & up[b], up)) != 1
    ]


def transitive_reduction(succ: Mapping[Hashable, Sequence[Hashable]]) -> dict[Hashable, set]:
    up = reach(succ)
    return {
        n: {m for m in up[n] - {n} if not any(m in up[k] for k in up[n] - {n, m})} for n in succ
    }


def join_fn(lat: Lattice) -> Callable[[Hashable, Hashable], Hashable]:
    return lambda a, b: lat.join(a, b)


# -- random DAGs ----------------------------------------------------------------------------------


@st.composite
def dags(draw: st.DrawFn, max_nodes: int = 8) -> dict[int, list[int]]:
    """A random DAG on nodes 0..n-1 whose edges go from lower to higher numbers (so acyclic),
    listed in a random key order."""
    n = draw(st.integers(1, max_nodes))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    order = draw(st.permutations(range(n)))
    return {i: sorted(j for a, j in edges if a == i) for i in order}


@st.composite
def lattices(draw: st.DrawFn) -> tuple[dict[int, list[int]], Lattice[int]]:
    """A random DAG that is a valid lattice (every pair has a unique join or none): the drawn DAG
    when valid, else its forest (each node keeps only its first successor), which always is."""
    succ = draw(dags())
    try:
        return succ, Lattice(succ)
    except LatticeError:
        pass
    tree = {n: s[:1] for n, s in succ.items()}
    return tree, Lattice(tree)


@st.composite
def digraphs(draw: st.DrawFn) -> dict[int, list[int]]:
    """A random directed graph (may have cycles and self-loops)."""
    n = draw(st.integers(1, 6))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), unique=True))
    return {i: sorted({j for a, j in edges if a == i}) for i in range(n)}


# -- construction and its refusals ----------------------------------------------------------------


def cycle_in_message(msg: str) -> list[str]:
    m = re.search(r"cycle (.*)$", msg)
    assert m, msg
    return [c.strip().strip("'") for c in m.group(1).split(" -> ")]


@pytest.mark.parametrize(
    "succ",
    [
        {"a": ["a"]},
        {"a": ["b"], "b": ["a"]},
        {"a": ["b"], "b": ["c"], "c": ["a"]},
        {"x": ["a"], "a": ["b"], "b": ["c", "y"], "c": ["a"], "y": []},
    ],
)
def test_cycle_is_refused_naming_the_cycle(succ: dict[str, list[str]]) -> None:
    with pytest.raises(LatticeError, match="cycle") as info:
        Lattice(succ, name="L")
    chain = cycle_in_message(str(info.value))
    assert str(info.value).startswith("L: cycle ")
    assert chain[0] == chain[-1] and len(chain) >= 2
    assert all(b in succ[a] for a, b in itertools.pairwise(chain)), chain


@given(digraphs())
def test_cycle_detection_matches_oracle(succ: dict[int, list[int]]) -> None:
    try:
        Lattice(succ)
    except LatticeError as e:
        if "cycle" in str(e):
            assert has_cycle(succ)
            chain = [int(c) for c in cycle_in_message(str(e))]
            assert chain[0] == chain[-1]
            assert all(b in succ[a] for a, b in itertools.pairwise(chain))
            return
    assert not has_cycle(succ)


@pytest.mark.parametrize(
    ("succ", "pair", "candidates"),
    [
        ({"a": ["c", "d"], "b": ["c", "d"], "c": [], "d": []}, "'a' and 'b'", "['c', 'd']"),
        (
            {"a": ["c", "d"], "b": ["c", "d"], "c": ["e"], "d": ["e"], "e": []},
            "'a' and 'b'",
            "['c', 'd']",
        ),
        ({"x": ["p", "q", "r"], "y": ["p", "q", "r"], "p": [], "q": [], "r": []}, "'x' and 'y'",
         "['p', 'q', 'r']"),
    ],
)  # fmt: skip
def test_ambiguous_join_is_refused_naming_nodes_and_candidates(
    succ: dict[str, list[str]], pair: str, candidates: str
) -> None:
    with pytest.raises(LatticeError) as info:
        Lattice(succ, name="L")
    msg = str(info.value)
    assert msg == (
        f"L: nodes {pair} have no unique least upper bound; the minimal common upper bounds "
        f"are {candidates}"
    )


@given(dags())
def test_validation_matches_oracle(succ: dict[int, list[int]]) -> None:
    bad = ambiguous_pairs(succ)
    if not bad:
        Lattice(succ)
        return
    with pytest.raises(LatticeError, match="no unique least upper bound") as info:
        Lattice(succ)
    m = re.search(r"nodes (\d+) and (\d+) .* bounds are \[(.*)\]$", str(info.value))
    assert m, str(info.value)
    a, b = int(m.group(1)), int(m.group(2))
    assert (a, b) in bad or (b, a) in bad
    up = reach(succ)
    assert {int(c) for c in m.group(3).split(", ")} == minimal(up[a] & up[b], up)


@pytest.mark.parametrize(
    ("succ", "named"),
    [
        ({"a": ["b"]}, "['b']"),
        ({"a": ["b", "c"], "c": []}, "['b']"),
        ({"a": ["x"], "b": ["y"]}, "['x', 'y']"),
    ],
)
def test_successors_missing_as_keys_are_refused(succ: dict[str, list[str]], named: str) -> None:
    with pytest.raises(LatticeError, match="not keys of the successor dict") as info:
        Lattice(succ, name="L")
    assert f"successor(s) {named}" in str(info.value)


def test_errors_are_value_errors() -> None:
    assert issubclass(LatticeError, ValueError)
    assert issubclass(NoJoinError, LatticeError)


# -- queries --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("succ", "nodes", "join"),
    [
        (SMALL, ("b", "u"), "f"),
        (SMALL, ("b", "i"), "i"),
        (SMALL, ("b",), "b"),
        (SMALL, ("b", "b", "b"), "b"),
        (SMALL, ("i", "u", "b"), "f"),
        (DIAMOND, ("x", "y"), "top"),
        (DIAMOND, ("bot", "x"), "x"),
        (DIAMOND, ("x", "tail"), "tail"),
        (DIAMOND, ("bot", "x", "y"), "top"),
        (SPLIT, ("a", "a2"), "a2"),
    ],
)
def test_join(succ: dict[str, list[str]], nodes: tuple[str, ...], join: str) -> None:
    assert Lattice(succ).join(*nodes) == join


@pytest.mark.parametrize(("nodes"), [("a", "z"), ("a2", "z"), ("a", "a2", "z")])
def test_no_join_raises_naming_the_nodes(nodes: tuple[str, ...]) -> None:
    lat = Lattice(SPLIT)
    with pytest.raises(NoJoinError) as info:
        lat.join(*nodes)
    assert info.value.nodes == nodes
    assert str(info.value) == f"nodes {nodes!r} have no common upper bound"
    assert lat.try_join(*nodes) is None


def test_join_needs_a_node_and_known_nodes() -> None:
    lat = Lattice(SMALL, name="small")
    with pytest.raises(ValueError, match="at least one node"):
        lat.join()
    with pytest.raises(KeyError, match="'q' is not a node of small"):
        lat.upper_bounds("q")
    assert "q" not in lat and "b" in lat


def test_leq_and_upper_bounds() -> None:
    lat = Lattice(DIAMOND)
    assert lat.upper_bounds("x") == {"x", "top", "tail"}
    assert lat.upper_bounds("tail") == {"tail"}
    assert lat.upper_bounds("bot") == set(DIAMOND)
    assert lat.leq("bot", "tail") and lat.leq("x", "x")
    assert not lat.leq("x", "y") and not lat.leq("top", "x")
    assert lat.nodes == tuple(DIAMOND)


def test_table() -> None:
    lat = Lattice(SPLIT)
    assert lat.table() == {
        "a": {"a": "a", "a2": "a2", "z": None},
        "a2": {"a": "a2", "a2": "a2", "z": None},
        "z": {"a": None, "a2": None, "z": "z"},
    }
    assert lat.table(["a2", "a"]) == {
        "a2": {"a2": "a2", "a": "a2"},
        "a": {"a2": "a2", "a": "a"},
    }


def test_hasse_drops_redundant_edges() -> None:
    redundant = {
        "bot": ["x", "y", "top", "tail"],
        "x": ["top", "tail"],
        "y": ["top"],
        "top": ["tail"],
        "tail": [],
    }
    reduced = {"bot": ("x", "y"), "x": ("top",), "y": ("top",), "top": ("tail",), "tail": ()}
    assert Lattice(redundant).hasse() == Lattice(DIAMOND).hasse() == reduced


@pytest.mark.parametrize(
    ("succ", "nodes", "chains"),
    [
        (SMALL, ("b", "u"), (("b", "i", "f"), ("u", "f"))),
        (SMALL, ("b",), (("b",),)),
        (DIAMOND, ("x", "y"), (("x", "top"), ("y", "top"))),
        (DIAMOND, ("bot", "tail"), (("bot", "x", "top", "tail"), ("tail",))),
        (DIAMOND, ("x", "bot", "y"), (("x", "top"), ("bot", "x", "top"), ("y", "top"))),
    ],
)
def test_explain_chains(
    succ: dict[str, list[str]], nodes: tuple[str, ...], chains: tuple[tuple[str, ...], ...]
) -> None:
    ex = Lattice(succ).explain(*nodes)
    assert ex.inputs == nodes
    assert ex.join == chains[0][-1]
    assert ex.chains == chains


def test_explain_format() -> None:
    text = Lattice(SMALL).explain("b", "u").format(str.upper)
    assert text == "join(B, U) = F\n  B -> I -> F\n  U -> F"


def test_explain_of_no_join_raises() -> None:
    with pytest.raises(NoJoinError):
        Lattice(SPLIT).explain("a", "z")


# -- properties on random lattices ----------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(lattices())
def test_random_lattice_matches_oracles(case: tuple[dict[int, list[int]], Lattice[int]]) -> None:
    succ, lat = case
    up = reach(succ)
    for n in succ:
        assert lat.upper_bounds(n) == up[n]
    for a, b in itertools.product(succ, repeat=2):
        common = up[a] & up[b]
        expected = least(common, up)
        assert lat.try_join(a, b) == (expected[0] if expected else None)
        assert lat.leq(a, b) == (b in up[a])
    hasse = lat.hasse()
    assert {n: set(s) for n, s in hasse.items()} == transitive_reduction(succ)
    assert reach(hasse) == up  # the reduction keeps the order


@settings(max_examples=150, deadline=None)
@given(lattices(), st.data())
def test_redundant_edges_do_not_change_the_lattice(
    case: tuple[dict[int, list[int]], Lattice[int]], data: st.DataObject
) -> None:
    succ, lat = case
    up = reach(succ)
    implied = [(a, b) for a in succ for b in up[a] if b != a and b not in succ[a]]
    extra = data.draw(st.lists(st.sampled_from(implied), unique=True)) if implied else []
    more = {n: [*s, *(b for a, b in extra if a == n)] for n, s in succ.items()}
    lat2 = Lattice(more)
    assert lat2.hasse() == lat.hasse()
    assert lat2.table() == lat.table()


@settings(max_examples=150, deadline=None)
@given(lattices())
def test_explain_chains_are_hasse_paths_to_the_join(
    case: tuple[dict[int, list[int]], Lattice[int]],
) -> None:
    succ, lat = case
    hasse = lat.hasse()
    for a, b in itertools.product(succ, repeat=2):
        j = lat.try_join(a, b)
        if j is None:
            continue
        ex = lat.explain(a, b)
        assert ex.join == j
        for start, chain in zip((a, b), ex.chains, strict=True):
            assert chain[0] == start and chain[-1] == j
            assert all(y in hasse[x] for x, y in itertools.pairwise(chain))


@settings(max_examples=150, deadline=None)
@given(lattices())
def test_random_lattice_join_laws(case: tuple[dict[int, list[int]], Lattice[int]]) -> None:
    succ, lat = case
    j = lat.try_join
    for a, b, c in itertools.product(succ, repeat=3):
        assert j(a, a) == a
        assert j(a, b) == j(b, a)
        ab, bc = j(a, b), j(b, c)
        left = None if ab is None else j(ab, c)
        right = None if bc is None else j(a, bc)
        assert left == right == j(a, b, c)


# -- check_table ----------------------------------------------------------------------------------


def as_sets(hasse: Mapping[Hashable, Sequence[Hashable]]) -> dict[Hashable, set[Hashable]]:
    return {n: set(s) for n, s in hasse.items()}


def test_check_table_recovers_a_known_lattice() -> None:
    lat = Lattice(DIAMOND)
    report = check_table(lat.nodes, join_fn(lat))
    assert isinstance(report, TableReport)
    assert (report.commutativity, report.idempotence, report.associativity) == ([], [], [])
    assert report.is_lattice_join and report.why_not_lattice is None
    assert as_sets(report.hasse or {}) == as_sets(lat.hasse())


def test_check_table_with_partial_join() -> None:
    lat = Lattice(SPLIT)
    report = check_table(lat.nodes, join_fn(lat), errors=(NoJoinError,))
    assert report.is_lattice_join
    assert as_sets(report.hasse or {}) == as_sets(lat.hasse())


def test_check_table_results_outside_the_nodes_are_followed() -> None:
    lat = Lattice(DIAMOND)
    report = check_table(["x", "y"], join_fn(lat))
    assert report.is_lattice_join
    assert as_sets(report.hasse or {}) == {"x": {"top"}, "y": {"top"}, "top": set()}


@settings(max_examples=100, deadline=None)
@given(lattices())
def test_check_table_recovers_random_lattices(
    case: tuple[dict[int, list[int]], Lattice[int]],
) -> None:
    succ, lat = case
    report = check_table(list(succ), join_fn(lat), errors=(NoJoinError,))
    assert report.is_lattice_join, report.why_not_lattice
    assert as_sets(report.hasse or {}) == as_sets(lat.hasse())


def test_check_table_non_commutative() -> None:
    report = check_table(["p", "q", "r"], lambda a, b: a)  # left projection
    assert report.commutativity == [("p", "q", "p", "q"), ("p", "r", "p", "r"),
                                    ("q", "r", "q", "r")]  # fmt: skip
    assert report.idempotence == [] and report.associativity == []
    assert not report.is_lattice_join
    assert report.why_not_lattice == "the table breaks commutativity"


def test_check_table_non_idempotent() -> None:
    report = check_table([0, 1, 2, 3], lambda a, b: (a + b) % 4)
    assert report.idempotence == [(1, 2), (2, 0), (3, 2)]
    assert report.commutativity == [] and report.associativity == []
    assert report.why_not_lattice == "the table breaks idempotence"


ROCK_PAPER_SCISSORS = {("R", "S"): "R", ("S", "P"): "S", ("P", "R"): "P"}


def rps(a: str, b: str) -> str:
    return a if a == b else ROCK_PAPER_SCISSORS.get((a, b)) or ROCK_PAPER_SCISSORS[(b, a)]


def test_check_table_non_associative() -> None:
    report = check_table(["R", "P", "S"], rps)
    assert report.commutativity == [] and report.idempotence == []
    assert ("R", "S", "P", "P", "R") in report.associativity  # (R∘S)∘P = P, R∘(S∘P) = R
    for a, b, c, left, right in report.associativity:
        assert left == rps(rps(a, b), c) != right == rps(a, rps(b, c))
    assert report.why_not_lattice == "the table breaks associativity"


def test_check_table_reports_every_broken_law_and_caps_examples() -> None:
    def bad(a: int, b: int) -> int:
        return (a - b) % 5  # neither commutative, idempotent nor associative

    report = check_table(range(5), bad, max_examples=2)
    assert len(report.commutativity) == len(report.idempotence) == len(report.associativity) == 2
    assert report.why_not_lattice == "the table breaks commutativity, idempotence, associativity"


def test_check_table_errors_count_as_no_result() -> None:
    def promote(a: str, b: str) -> str:
        if a != b:
            raise TypeError("no")
        return a

    report = check_table(["a", "b"], promote, errors=(TypeError,))
    assert report.is_lattice_join
    assert as_sets(report.hasse or {}) == {"a": set(), "b": set()}
    with pytest.raises(TypeError):
        check_table(["a", "b"], promote, errors=(KeyError,))


# -- NumPy's live promotion -----------------------------------------------------------------------

NUMPY_NODES = [
    np.dtype(n)
    for n in (
        "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
        "float16", "float32", "float64",
    )
]  # fmt: skip


def test_numpy_promotion_is_not_a_lattice_join() -> None:
    """NumPy 2's promote_types over bool/ints/floats breaks associativity (around int8, uint8,
    float16: int16 + float16 is float32 but int8 + float16 is float16). The counterexamples are
    checked live, not hard-coded, against a brute-force scan."""
    pt = np.promote_types
    report = check_table(NUMPY_NODES, pt)
    expected = {
        (a, b, c)
        for a, b, c in itertools.product(NUMPY_NODES, repeat=3)
        if pt(pt(a, b), c) != pt(a, pt(b, c))
    }
    assert expected, "this NumPy's promotion is associative on these types"
    assert {(a, b, c) for a, b, c, _, _ in report.associativity} == expected
    for a, b, c, left, right in report.associativity:
        assert left == pt(pt(a, b), c) and right == pt(a, pt(b, c))
    i8, u8, f16 = np.dtype("int8"), np.dtype("uint8"), np.dtype("float16")
    assert any({a, b, c} == {i8, u8, f16} for a, b, c in expected)
    assert not report.is_lattice_join
    assert report.why_not_lattice is not None and "associativity" in report.why_not_lattice
    for a, b, ab, ba in report.commutativity:
        assert pt(a, b) == ab != ba == pt(b, a)
