"""Type aliases shared by the package's annotations."""

from typing import Union

try:  # Python 3.12+: any object with the buffer protocol
    from collections.abc import Buffer
except ImportError:  # 3.11: the common ones
    Buffer = Union[bytes, bytearray, memoryview]  # type: ignore[misc]

__all__ = ["Buffer"]
