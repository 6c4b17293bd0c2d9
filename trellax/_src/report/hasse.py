"""The promotion lattice as a picture: a layered left-to-right layout, drawn as text, DOT or SVG.

The SVG is written by hand (no graphviz, no matplotlib) and follows the figure of JAX's
type-promotion docs: bool on the left, then ``i*``, the unsigned integers below and the signed ones
above, ``f*``, the floats, and the complex types top right. Arrows point from a type to the types
it promotes to (the Hasse diagram: edges implied by transitivity are left out). Weak nodes are
drawn dashed and in italics.

Layout: a node's column is the length of the longest chain below it; its preferred height comes
from its category (:func:`_lane`); nodes of one column that want the same height are spread apart
and nothing overlaps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal
from xml.sax.saxutils import escape

from trellax._src.config import settings as _config
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.dtypes import Node, WeakType
from trellax._src.report import spec

Format = Literal["text", "dot", "svg"]
FORMATS: Final[tuple[Format, ...]] = ("text", "dot", "svg")


@dataclass(frozen=True)
class Diagram:
    """The Hasse diagram of a lattice restricted to some nodes, with a layout.

    ``column`` and ``height`` place the nodes (height grows upwards). The low-precision types
    (sub-byte ints, fp8/fp6/fp4) are dead ends hanging off ``i*`` or ``f*``; they are listed in
    ``combs`` as (parent, children, direction) and drawn as a comb: one vertical bus from the
    parent, with the children stacked beside it (direction -1 below the rest, +1 above).
    """

    title: str
    nodes: tuple[Node, ...]
    edges: tuple[tuple[Node, Node], ...]
    column: dict[Node, float]
    height: dict[Node, float]
    combs: tuple[tuple[Node, tuple[Node, ...], int], ...] = ()


def diagram(st: _config.State, *, include_all: bool = False) -> Diagram:
    """The Hasse diagram of the lattice of ``st``: the 18 nodes of the docs' figure, or with
    ``include_all`` every dtype trellax promotes (sub-byte ints, fp8/fp6/fp4 too)."""
    lat = _dt.lattice(st.x64, st.mode)
    strict = st.mode == "strict"
    extra = _extra_nodes() if include_all else ()
    wanted = (*_dt.TABLE_NODES, *extra)
    hasse = lat.hasse()
    edges = tuple((a, b) for a in wanted for b in hasse[a] if _member(b, wanted))

    # Which children hang in a comb: in strict mode every dtype a weak node promotes to (each weak
    # node fans out to a whole category); otherwise the low-precision dead ends.
    def in_comb(a: Node, b: Node) -> bool:
        if strict:
            return isinstance(a, WeakType) and not isinstance(b, WeakType)
        return _member(b, extra)

    main = tuple(n for n in wanted if not any(in_comb(a, b) and b is n for a, b in edges))
    main_edges = tuple((a, b) for a, b in edges if not in_comb(a, b))
    span = (3 if include_all else 2) if strict else 1
    column: dict[Node, float] = dict(_columns(main, main_edges, weak_span=span))
    height = _heights(main, column, strict)
    combs: list[tuple[Node, tuple[Node, ...], int]] = []
    low, high = min(height.values()), max(height.values())
    for direction in (-1, 1):
        for parent in main:
            children = tuple(
                b
                for a, b in edges
                if a is parent and in_comb(a, b) and (strict or _lane(b) > 1) == (direction > 0)
            )
            if not children:
                continue
            if strict:
                at = height[parent] + _GAP + 0.1
            else:
                at = (high if direction > 0 else low) + direction * 0.9
            for k, child in enumerate(children):
                if k:
                    at += direction * _stack_gap(children[k - 1], child, direction)
                column[child] = column[parent] + 0.5
                height[child] = at
            combs.append((parent, children, direction))
    what = "all promotable dtypes" if include_all else "the 18 types of the JAX docs"
    title = f"trellax promotion lattice ({st.mode}, {'x64' if st.x64 else 'x32'}; {what})"
    return Diagram(title, tuple(wanted), edges, column, height, tuple(combs))


def _stack_gap(prev: Node, nxt: Node, direction: int) -> float:
    """Vertical distance (in height units) between two neighbours in a comb: their shapes, and
    the name written under the upper one, must not touch."""
    upper = nxt if direction > 0 else prev
    pad = 20.0 if spec.code(upper) != spec.name(upper) else 7.0
    return (_box(prev)[1] + _box(nxt)[1] + pad) / _Y_STEP


def _extra_nodes() -> tuple[Node, ...]:
    return (*_dt.LOW_INTS.values(), *_dt.SMALL_FLOATS.values())


def _member(n: Node, nodes: tuple[Node, ...]) -> bool:
    return any(n is m if isinstance(m, WeakType) else n == m for m in nodes)


def _columns(
    nodes: tuple[Node, ...], edges: tuple[tuple[Node, Node], ...], weak_span: int = 1
) -> dict[Node, int]:
    """Longest-path layering: a node sits right of all its predecessors. An edge between two weak
    nodes spans ``weak_span`` columns (2 in strict mode, where ``f*`` would otherwise stand among
    the ints), and a node without any edge (bool in strict mode) gets a column of its own on the
    left."""
    preds: dict[Node, list[Node]] = {n: [] for n in nodes}
    for a, b in edges:
        preds[b].append(a)
    linked = {id(n) for e in edges for n in e}
    shift = 1 if any(id(n) not in linked for n in nodes) else 0
    column: dict[Node, int] = {}

    def col(n: Node) -> int:
        if n not in column:
            if id(n) not in linked:
                column[n] = 0
            else:
                column[n] = max(
                    (col(p) + (weak_span if _weak_pair(p, n) else 1) for p in preds[n]),
                    default=shift,
                )
        return column[n]

    for n in nodes:
        col(n)
    return column


def _weak_pair(a: Node, b: Node) -> bool:
    return isinstance(a, WeakType) and isinstance(b, WeakType)


def _lane(n: Node, strict: bool = False) -> float:
    """Preferred height by category, as in the docs' figure: unsigned ints low, signed ints and
    complex types high, bool and the real floats in the middle; sub-byte signed ints go above
    everything, sub-byte unsigned ints and fp8/6/4 below. In strict mode the weak nodes form a
    chain ``i* -> f* -> c*`` along the bottom, next to bool; each fans out upwards."""
    if isinstance(n, WeakType):
        return 0.0 if strict else {"i": 1.0, "f": 1.0, "c": 2.0}[n.kind]
    if n in _dt.LOW_INTS.values():
        return -1.0 if _dt.kind(n) == "u" else 3.0
    if n in _dt.SMALL_FLOATS.values():
        return -1.0
    return {"b": 0.0, "u": 0.0, "i": 2.0, "f": 1.0, "c": 2.0}[_dt.kind(n)]


_GAP: Final = 0.8  # the smallest vertical distance between two nodes of one column


def _heights(nodes: tuple[Node, ...], column: dict[Node, float], strict: bool) -> dict[Node, float]:
    """Spreads each column's nodes around their preferred heights, at least ``_GAP`` apart."""

    def lane(n: Node) -> float:
        return _lane(n, strict)

    height: dict[Node, float] = {}
    for c in sorted(set(column.values())):
        members = sorted((n for n in nodes if column[n] == c), key=lane)
        # Groups of equal preference are centred on it; then push up whatever overlaps.
        placed: list[float] = []
        i = 0
        while i < len(members):
            want = lane(members[i])
            group = [m for m in members[i:] if lane(m) == want]
            start = want - _GAP * (len(group) - 1) / 2
            placed += [start + _GAP * k for k in range(len(group))]
            i += len(group)
        for k in range(1, len(placed)):
            placed[k] = max(placed[k], placed[k - 1] + _GAP)
        height.update(zip(members, placed))
    return height


# -- text and DOT ----------------------------------------------------------------------------------


def to_text(d: Diagram) -> str:
    """Each node's immediate successors, column by column (left to right)."""
    lines = [d.title, "a -> b: a promotes to b (Hasse diagram: implied edges left out)", ""]
    width = max(len(spec.describe(n)) for n in d.nodes)
    for n in sorted(d.nodes, key=lambda n: (d.column[n], -d.height[n])):
        ups = [b for a, b in d.edges if _member(a, (n,))]
        succ = ", ".join(spec.code(b) for b in ups) if ups else "(nothing above)"
        lines.append(f"  {spec.describe(n).ljust(width)}  -> {succ}")
    return "\n".join(lines) + "\n"


def to_dot(d: Diagram) -> str:
    """Graphviz DOT source (for those who have graphviz; trellax never needs it)."""
    lines = [
        f"// {d.title}",
        "digraph trellax_lattice {",
        "  rankdir=LR;",
        '  node [shape=circle, style=filled, fillcolor="#d9d9d9", fontname="Helvetica"];',
    ]
    for n in d.nodes:
        attrs = f"label={_dot_str(spec.code(n))}, tooltip={_dot_str(spec.name(n))}"
        if isinstance(n, WeakType):
            attrs += ', style="dashed,filled", fillcolor="#ffffff", fontname="Helvetica-Oblique"'
        lines.append(f"  {_dot_str(spec.code(n))} [{attrs}];")
    for a, b in d.edges:
        lines.append(f"  {_dot_str(spec.code(a))} -> {_dot_str(spec.code(b))};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- SVG ------------------------------------------------------------------------------------------

_X_STEP: Final = 92.0  # pixels per column
_Y_STEP: Final = 75.0  # pixels per unit of height
_R: Final = 21.0  # radius of a node with a short code
_MARGIN: Final = 36.0
_CHAR_W: Final = 7.8  # width of one character of the 13px monospace label, roughly


def _box(n: Node) -> tuple[float, float]:
    """Half-width and half-height of a node's shape: a circle for a code, a pill for a name."""
    label = spec.code(n)
    if len(label) <= 3:
        return _R, _R
    return max(_R, len(label) * _CHAR_W / 2 + 10), 15.0


def to_svg(d: Diagram) -> str:
    """A standalone SVG drawing of the diagram."""
    in_comb = {id(c): (p, sign) for p, cs, sign in d.combs for c in cs}
    top = max(d.height.values())
    x0 = _MARGIN + _R
    y0 = _MARGIN + 40.0
    px: dict[Node, tuple[float, float]] = {}
    for n in d.nodes:
        y = y0 + (top - d.height[n]) * _Y_STEP
        if id(n) in in_comb:  # a pill whose left end sits just right of the parent's bus
            parent = in_comb[id(n)][0]
            px[n] = (x0 + d.column[parent] * _X_STEP + _BUS_GAP + _box(n)[0], y)
        else:
            px[n] = (x0 + d.column[n] * _X_STEP, y)
    right = max(x + _box(n)[0] for n, (x, _) in px.items())
    bottom = max(y for _, y in px.values()) + _R + 22  # room for the name under a node
    width = max(right + _MARGIN, _MARGIN + len(d.title) * 8.6, _LEGEND_WIDTH + 2 * _MARGIN)
    height = bottom + 52  # legend

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif">',
        f"<title>{escape(d.title)}</title>",
        "<defs>",
        '  <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse">',
        '    <path d="M 0 0 L 10 5 L 0 10 z" fill="#444"/>',
        "  </marker>",
        "</defs>",
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text x="{_MARGIN:.0f}" y="{_MARGIN - 8:.0f}" font-size="15" font-weight="bold" '
        f'fill="#222">{escape(d.title)}</text>',
        '<g class="edges" stroke="#444" stroke-width="1.4" fill="none">',
    ]
    for a, b in d.edges:
        if id(b) in in_comb:
            continue
        (xa, ya), (xb, yb) = px[a], px[b]
        sx, sy = _border(xa, ya, xb, yb, _box(a))
        ex, ey = _border(xb, yb, xa, ya, _box(b))
        out.append(
            f'  <line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
            'marker-end="url(#arrow)"/>'
        )
    for parent, children, sign in d.combs:
        bx, by = px[parent]
        far = px[children[-1]][1]
        out.append(f'  <path d="M {bx:.1f} {by - sign * (_R + 2):.1f} V {far:.1f}"/>')
        for c in children:
            cx, cy = px[c]
            out.append(
                f'  <line x1="{bx:.1f}" y1="{cy:.1f}" x2="{cx - _box(c)[0] - 2:.1f}" '
                f'y2="{cy:.1f}" marker-end="url(#arrow)"/>'
            )
    out.append("</g>")
    out.append('<g class="nodes">')
    for n in d.nodes:
        out.append(_svg_node(n, *px[n]))
    out.append("</g>")
    out.append(_svg_legend(_MARGIN, bottom + 12))
    out.append("</svg>")
    return "\n".join(out) + "\n"


_BUS_GAP: Final = 16.0
_LEGEND_WIDTH: Final = 800.0


def _border(
    x: float, y: float, tx: float, ty: float, box: tuple[float, float]
) -> tuple[float, float]:
    """Where the segment from the centre (x, y) towards (tx, ty) leaves the node's shape."""
    dx, dy = tx - x, ty - y
    dist = (dx * dx + dy * dy) ** 0.5 or 1.0
    hw, hh = box
    if hw == hh:  # a circle
        return x + dx / dist * (hw + 2), y + dy / dist * (hh + 2)
    # a pill: scale the direction to hit the bounding box
    scale = min(hw / abs(dx) if dx else float("inf"), hh / abs(dy) if dy else float("inf"))
    return x + dx * scale + dx / dist * 2, y + dy * scale + dy / dist * 2


def _svg_node(n: Node, x: float, y: float) -> str:
    weak = isinstance(n, WeakType)
    hw, hh = _box(n)
    fill, stroke = ("#ffffff", "#1f5fbf") if weak else ("#d9d9d9", "#555555")
    dash = ' stroke-dasharray="4 3"' if weak else ""
    shape = (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{hw:.1f}"'
        if hw == hh
        else f'<rect x="{x - hw:.1f}" y="{y - hh:.1f}" width="{2 * hw:.1f}" '
        f'height="{2 * hh:.1f}" rx="{hh:.1f}"'
    )
    label_style = ' font-style="italic" fill="#1f5fbf"' if weak else ' fill="#111"'
    code = spec.code(n)
    lines = [
        f"  <g><title>{escape(spec.describe(n))}</title>",
        f'    {shape} fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>',
        f'    <text x="{x:.1f}" y="{y + 4.5:.1f}" text-anchor="middle" font-size="13" '
        f'font-family="DejaVu Sans Mono, Menlo, monospace"{label_style}>{escape(code)}</text>',
    ]
    if code != spec.name(n):  # the full name under the node, on a white halo
        at = f'x="{x:.1f}" y="{y + hh + 13:.1f}" text-anchor="middle" font-size="10"'
        lines.append(
            f'    <text {at} fill="#fff" stroke="#fff" stroke-width="3">{escape(spec.name(n))}'
            f'</text>\n    <text {at} fill="#666">{escape(spec.name(n))}</text>'
        )
    lines.append("  </g>")
    return "\n".join(lines)


def _svg_legend(x: float, y: float) -> str:
    return "\n".join(
        [
            f'<g class="legend" font-size="12" fill="#333" transform="translate({x:.0f},{y:.0f})">',
            '  <circle cx="10" cy="10" r="9" fill="#d9d9d9" stroke="#555" stroke-width="1.5"/>',
            '  <text x="26" y="14">dtype (strong)</text>',
            '  <circle cx="140" cy="10" r="9" fill="#fff" stroke="#1f5fbf" stroke-width="1.5" '
            'stroke-dasharray="4 3"/>',
            '  <text x="156" y="14">weak type (Python int / float / complex)</text>',
            '  <line x1="420" y1="10" x2="462" y2="10" stroke="#444" stroke-width="1.4" '
            'marker-end="url(#arrow)"/>',
            '  <text x="470" y="14">promotes to; a join is the least common upper bound</text>',
            "</g>",
        ]
    )
