"""The Dask graph of a planned program (built on the client, from the plan alone).

Keys: a chunked value ``n`` of a program with token ``t`` has the keys ``("tdask-t-n", *index)``
with the chunk number at its chunked axis and 0 elsewhere, so it *is* a Dask array; a replicated
value has one key of that form (a one-chunk array). The :class:`runtime.ProgramSpec` is one key
of the graph that every task depends on, so Dask sends it (with the function and whatever the
function closes over) to each worker once per computation, not once per task; so are replicated
inputs (parameters). Partials are combined in a tree of at most :data:`SPLIT_EVERY` per task.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.highlevelgraph import HighLevelGraph

from trellax._src.core.jaxpr import Literal
from trellax._src.dask import runtime

#: How many chunks' partials one combining task takes.
SPLIT_EVERY = 8

Key = tuple[Any, ...]


class GraphBuilder:
    """Tasks of one program over given inputs: chunked ones as Dask arrays chunked along their
    planned axis (and whole along every other), replicated ones as values or one-chunk arrays."""

    def __init__(
        self,
        prog: runtime.Program,
        inputs: Sequence[da.Array | Any],
    ) -> None:
        self.prog = prog
        self.plan = prog.plan
        self.token = prog.spec.token
        self.bounds = prog.spec.bounds
        self.starts = [0, *itertools.accumulate(self.bounds)]
        self.layer: dict[Key, Any] = {}
        self.deps: list[da.Array] = []
        self.names: dict[str, str] = {}
        self.spec_key: Key = (f"tdask-{self.token}-spec", 0)
        self.layer[self.spec_key] = prog.spec
        for name, value in zip(self.plan.inputs, inputs):
            if isinstance(value, da.Array):
                self.names[name] = value.name
                self.deps.append(value)
            else:
                self.layer[self.key(name)] = np.asarray(value)

    # -- keys --------------------------------------------------------------------------------

    def keyname(self, name: str) -> str:
        return self.names.get(name, f"tdask-{self.token}-{name}")

    def key(self, name: str, chunk: int = 0) -> Key:
        ndim = len(self.plan.avals[name].shape)
        index = [0] * ndim
        if self.plan.is_chunked(name):
            index[self.plan.axis[name]] = chunk
        return (self.keyname(name), *index)

    # -- tasks -------------------------------------------------------------------------------

    def build(self) -> None:
        plan = self.plan
        n_chunks = len(self.bounds)
        consts = plan.closed.jaxpr.constvars
        if consts:
            ckey = (f"tdask-{self.token}-consts", 0)
            self.layer[ckey] = (runtime.constants, self.spec_key)
            for i in range(len(consts)):
                self.layer[self.key(f"r{i}")] = (runtime.pick, ckey, i)
        for name, (src, axis) in plan.splits.items():
            for i in range(n_chunks):
                self.layer[self.key(name, i)] = (
                    runtime.split,
                    self.key(src),
                    axis,
                    self.starts[i],
                    self.starts[i + 1],
                )
        for name, (src, axis) in plan.gathers.items():
            blocks = [self.key(src, i) for i in range(n_chunks)]
            self.layer[self.key(name)] = (runtime.gather, axis, *blocks)
        partial_keys: dict[str, list[Key]] = {}
        for stage in plan.stages:
            lv = stage.level
            if stage.repl:
                skey = (f"tdask-{self.token}-R{lv}", 0)
                ins = [self.key(n) for n in stage.repl_inputs]
                self.layer[skey] = (runtime.run_repl_stage, self.spec_key, lv, *ins)
                for j, n in enumerate(stage.repl_outputs):
                    self.layer[self.key(n)] = (runtime.pick, skey, j)
            if stage.chunk or stage.chunk_outputs:
                for i in range(n_chunks):
                    skey = (f"tdask-{self.token}-C{lv}", i)
                    ins = [self.key(n, i) for n in stage.chunk_inputs]
                    ins += [self.key(n) for n in stage.chunk_repl_inputs]
                    self.layer[skey] = (
                        runtime.run_chunk_stage,
                        self.spec_key,
                        lv,
                        self.starts[i],
                        self.bounds[i],
                        *ins,
                    )
                    for j, n in enumerate(stage.chunk_outputs):
                        if n.startswith("p"):
                            okey: Key = (f"tdask-{self.token}-{n}", i)
                            partial_keys.setdefault(n, []).append(okey)
                        else:
                            okey = self.key(n, i)
                        self.layer[okey] = (runtime.pick, skey, j)
        for index, red in enumerate(plan.reductions):
            self._combine_tree(index, red, partial_keys)

    def _combine_tree(self, index: int, red: Any, partial_keys: dict[str, list[Key]]) -> None:
        """A tree of combining tasks over the chunks' partials, ending in the result's key."""
        items: list[list[Key]] = [list(ks) for ks in zip(*(partial_keys[p] for p in red.partials))]
        depth = 0
        while len(items) > SPLIT_EVERY:
            new: list[list[Key]] = []
            for g in range(0, len(items), SPLIT_EVERY):
                group = items[g : g + SPLIT_EVERY]
                ckey = (f"tdask-{self.token}-combine{index}-{depth}", g // SPLIT_EVERY)
                flat = [k for item in group for k in item]
                self.layer[ckey] = (runtime.combine, self.spec_key, index, False, *flat)
                picks = []
                for k in range(len(red.partials)):
                    pkey = (f"tdask-{self.token}-combine{index}-{depth}-{k}", g // SPLIT_EVERY)
                    self.layer[pkey] = (runtime.pick, ckey, k)
                    picks.append(pkey)
                new.append(picks)
            items = new
            depth += 1
        flat = [k for item in items for k in item]
        self.layer[self.key(red.result)] = (runtime.combine, self.spec_key, index, True, *flat)

    # -- outputs -----------------------------------------------------------------------------

    def output(self, name: str | Literal) -> da.Array:
        """The Dask array of one output of the program."""
        if isinstance(name, Literal):
            return da.from_array(np.asarray(name.value, name.aval.dtype), chunks=-1)
        aval = self.plan.avals[name]
        for dep in self.deps:
            if dep.name == self.keyname(name):
                return dep
        chunks = []
        for ax, size in enumerate(aval.shape):
            if self.plan.is_chunked(name) and ax == self.plan.axis[name]:
                chunks.append(tuple(self.bounds))
            else:
                chunks.append((size,))
        keyname = self.keyname(name)
        graph = HighLevelGraph.from_collections(keyname, self.layer, dependencies=self.deps)
        meta = np.empty((0,) * len(aval.shape), aval.dtype)
        return da.Array(graph, keyname, chunks=tuple(chunks), meta=meta)
