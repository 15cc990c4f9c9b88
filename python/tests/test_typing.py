"""The type information: the stubs of the C extension (aesir/_aesir.pyi)
name exactly what the module exports, class by class, and the typed
usage file (typing_usage.py, which mypy checks in make python-test)
runs. aesir's __all__ lists every public name of the package."""

import ast
import importlib
import pathlib
import sys
import types

import aesir
from aesir import _aesir, hazmat

STUB = pathlib.Path(aesir.__file__).with_name("_aesir.pyi")


def stub_names():
    """{top-level name: set of member names for a class, else None}."""
    out = {}
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for n in node.body:
                if isinstance(n, ast.FunctionDef):
                    members.add(n.name)
                elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                    members.add(n.target.id)
            out[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = None
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = None
    return out


def public(names):
    return {n for n in names if not (n.startswith("__") and n.endswith("__"))}


def test_stub_names_every_module_export():
    stub = stub_names()
    assert set(stub) == public(dir(_aesir)), (
        f"in the module, not the stub: {public(dir(_aesir)) - set(stub)}; "
        f"in the stub, not the module: {set(stub) - public(dir(_aesir))}"
    )


def test_stub_names_every_class_member():
    for name, members in stub_names().items():
        if members is None:
            continue
        cls = getattr(_aesir, name)
        base = cls.__mro__[1]  # object or Exception: what the stub inherits
        have = public(dir(cls)) - public(dir(base))
        members = public(members)
        assert have == members, (name, have - members, members - have)


def test_all_lists_every_public_name():
    for mod in (aesir, aesir.chunked, hazmat):
        names = {
            n
            for n in dir(mod)
            if not n.startswith("_") and not isinstance(getattr(mod, n), types.ModuleType)
        }
        # typing helpers imported for annotations are not the API
        names -= {"Any", "BinaryIO", "Literal", "Optional", "Union", "overload",
                  "List", "Tuple", "Buffer", "PathLike"}
        assert names <= set(mod.__all__), (mod.__name__, names - set(mod.__all__))
        for n in mod.__all__:
            assert hasattr(mod, n), (mod.__name__, n)


def test_typing_usage_runs():
    here = str(pathlib.Path(__file__).parent)
    sys.path.insert(0, here)
    try:
        importlib.import_module("typing_usage").main()
    finally:
        sys.path.remove(here)
