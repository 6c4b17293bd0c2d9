"""Fixtures shared by several test files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import trellax


@pytest.fixture
def eight_devices() -> Iterator[None]:
    """Eight emulated CPU devices (``jax_num_cpu_devices``) for the test, and no mesh left set
    after it. Files that need them for every test say ``pytestmark =
    pytest.mark.usefixtures("eight_devices")``."""
    trellax.config.update("jax_num_cpu_devices", 8)
    try:
        yield
    finally:
        trellax.config.update("jax_num_cpu_devices", -1)
        trellax.set_mesh(None)
