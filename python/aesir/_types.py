"""Type aliases shared by the package's annotations."""

import sys
from typing import Union

if sys.version_info >= (3, 12):  # any object with the buffer protocol
    from collections.abc import Buffer
else:  # 3.11: the common ones
    Buffer = Union[bytes, bytearray, memoryview]

__all__ = ["Buffer"]
