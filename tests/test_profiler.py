"""``trellax.profiler``: annotated host regions recorded to a Chrome trace-event file."""

from __future__ import annotations

import json
import pathlib

import pytest

import trellax
import trellax.numpy as tnp
from trellax import profiler


def test_trace_records_annotated_regions(tmp_path: pathlib.Path) -> None:
    @profiler.annotate_function
    def work(x: object) -> object:
        return tnp.sin(x)

    with profiler.trace(tmp_path):
        for step in range(3):
            with (
                profiler.StepTraceAnnotation("train", step_num=step),
                profiler.TraceAnnotation("forward", batch=8),
            ):
                work(tnp.ones(4))
    (path,) = tmp_path.glob("trellax_trace_*.json")
    events = json.loads(path.read_text())["traceEvents"]
    names = [e["name"] for e in events]
    assert names.count("train") == 3 and names.count("forward") == 3 and "trace" in names
    assert any(n.endswith("work") for n in names)
    steps = [e["args"]["step_num"] for e in events if e["name"] == "train"]
    assert steps == [0, 1, 2]
    assert all(e["dur"] >= 0 and e["ph"] == "X" for e in events)


def test_annotations_outside_a_trace_record_nothing(tmp_path: pathlib.Path) -> None:
    with profiler.TraceAnnotation("idle"):
        pass
    profiler.start_trace(tmp_path)
    with pytest.raises(RuntimeError, match="already been started"):
        profiler.start_trace(tmp_path)
    profiler.stop_trace()
    with pytest.raises(RuntimeError, match="No profile started"):
        profiler.stop_trace()
    events = json.loads(next(tmp_path.glob("*.json")).read_text())["traceEvents"]
    assert [e["name"] for e in events] == ["trace"]


def test_what_has_no_counterpart_raises() -> None:
    with pytest.raises(NotImplementedError, match="no profiler server"):
        profiler.start_server(9999)
    with pytest.raises(NotImplementedError, match="device memory profile"):
        profiler.save_device_memory_profile("/tmp/x.prof")
    assert trellax.profiler is profiler


def test_dlpack_module() -> None:
    import numpy as np

    from trellax import dlpack

    assert dlpack.is_supported_dtype(tnp.bfloat16) and dlpack.is_supported_dtype("float64")
    assert not dlpack.is_supported_dtype(tnp.int4)
    assert not dlpack.is_supported_dtype(tnp.float8_e4m3fn)
    x = dlpack.from_dlpack(np.arange(3.0, dtype=np.float32))
    assert x.dtype == tnp.float32 and x.tolist() == [0.0, 1.0, 2.0]
