"""The aesir package's PEP 517 build backend: scikit-build-core's, with
one step added to the sdist.

python/CMakeLists.txt builds the C library from the repository around
python/ (its CMakeLists.txt, include/ and src/). An sdist holds only
python/, so build_sdist first copies those three into python/_csrc, which
the sdist then carries (pyproject.toml, sdist.include) and CMakeLists.txt
uses when there is no repository around it, as in an unpacked sdist. The
copy is removed again afterwards: inside the repository the build always
uses the real sources. Every other hook is scikit-build-core's own.
"""

import os
import shutil
from typing import Dict, List, Optional

from scikit_build_core import build as _skbuild
from scikit_build_core.build import (  # noqa: F401 (the hooks, unchanged)
    build_editable,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

_PARTS = ("CMakeLists.txt", "include", "src")


def _repo() -> Optional[str]:
    """The repository around the project directory (the hooks' working
    directory, PEP 517), or None (an unpacked sdist)."""
    parent = os.path.abspath("..")
    if os.path.isfile(os.path.join(parent, "include", "aesir.h")) and os.path.isdir(
        os.path.join(parent, "src", "aead")
    ):
        return parent
    return None


def build_sdist(
    sdist_directory: str, config_settings: Optional[Dict[str, List[str]]] = None
) -> str:
    repo, csrc = _repo(), os.path.abspath("_csrc")
    if repo is None:
        if not os.path.isfile(os.path.join(csrc, "CMakeLists.txt")):
            raise RuntimeError(
                "no C library sources: neither the aesir repository around "
                "python/ nor a _csrc copy of it"
            )
        return _skbuild.build_sdist(sdist_directory, config_settings)
    shutil.rmtree(csrc, ignore_errors=True)
    try:
        os.mkdir(csrc)
        for part in _PARTS:
            src = os.path.join(repo, part)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(csrc, part))
            else:
                shutil.copy2(src, csrc)
        return _skbuild.build_sdist(sdist_directory, config_settings)
    finally:
        shutil.rmtree(csrc, ignore_errors=True)
