"""A quiet heap for the tests that time code.

In a long test session the objects earlier tests left alive fill the collector's oldest
generation: a full collection then costs seconds, and it is paid at every
`gc.collect()` a timing test makes and at every automatic collection inside a timed
stretch. `frozen_heap()` moves what is alive when it begins out of the collector's sight
(`gc.freeze`), so a collection inside it costs what the block itself allocated.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
