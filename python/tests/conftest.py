"""pytest configuration of the aesir Python tests: the vector directory
as a fixture, and the number of random cases per differential test
(AESIR_PY_CASES; the default keeps the whole suite well under a minute)."""

import os

import pytest

import _vectors


@pytest.fixture(scope="session")
def vdir():
    return _vectors.vectors_dir()


@pytest.fixture(scope="session")
def cases():
    return int(os.environ.get("AESIR_PY_CASES", "400"))
