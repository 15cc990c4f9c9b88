#!/usr/bin/env python3
"""Checks that README.md quotes examples/example.c verbatim (the example is
compiled and run by the readme_example test, so the README's code is
known to build and work)."""
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
example = (root / "examples" / "example.c").read_text()
readme = (root / "README.md").read_text()
body = example.split("\n", 1)[1]  # the README omits the first comment line
if body.strip() not in readme:
    print("README.md does not contain examples/example.c (minus line 1)")
    sys.exit(1)
print("README example matches examples/example.c")
