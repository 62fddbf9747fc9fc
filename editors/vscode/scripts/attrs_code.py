"""The methods attrs writes for lsprotocol's classes, compiled once when the extension is
packaged instead of at every start of the bundled server.

lsprotocol defines some 560 attrs classes; attrs writes the source of each one's methods
and compiles it when the class is made, a fifth of the server's start-up. `record` (run by
bundle_server.py, after the rest is laid) imports the server's LSP front end and reads an
`initialize` as the server does, keeping each compiled method's code by its source and
file name, in `attrs-code.<tag>.marshal` beside this file for the Python packaging (its
cache tag, as bytecode). `reuse` (the bundle's launch.py) makes attrs evaluate that code
instead of compiling the same source again. Any other source (another attrs, another
class) is compiled as usual; another Python finds no file for its tag and reuses nothing.
"""

from __future__ import annotations
import __future__

import importlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
STORE = os.path.join(HERE, f"attrs-code.{sys.implementation.cache_tag}.marshal")

FRONT_END = ("mfls.lsp.routes", "mfls.lsp.wire")  # as `mfls serve` imports it

CompileAndEval = Callable[..., None]


def _future_flags(function: Callable[..., Any]) -> int:
    """The `from __future__` flags in force where `function` was compiled: what its own
    `compile` calls inherit."""
    every = 0
    for name in __future__.all_feature_names:
        every |= getattr(__future__, name).compiler_flag
    return function.__code__.co_flags & every


def reuse(store: str = STORE) -> bool:
    """Make attrs evaluate the recorded code of a source it would compile; False when
    there is none for this Python (or attrs has no such step), and nothing changes."""
    try:
        with open(store, "rb") as stream:
            magic, codes = marshal.load(stream)
        if magic != importlib.util.MAGIC_NUMBER:  # bytecode of another Python
            return False
        from attr import _make

        compile_and_eval: CompileAndEval = _make._compile_and_eval
    except (OSError, EOFError, ValueError, TypeError, ImportError, AttributeError):
        return False

    def recorded_or_compiled(script: str, globs: Any, locs: Any = None, filename: str = "") -> None:
        code = codes.get((script, filename))
        if code is None:
            compile_and_eval(script, globs, locs, filename)
        else:
            eval(code, globs, locs)

    _make._compile_and_eval = recorded_or_compiled
    return True


def record(store: str = STORE) -> int:
    """Import the server's LSP front end, keeping the code attrs compiles, into `store`;
    the number of methods' sources kept."""
    from attr import _make

    flags = _future_flags(_make._compile_and_eval)
    codes: dict[tuple[str, str], Any] = {}

    def compile_and_keep(script: str, globs: Any, locs: Any = None, filename: str = "") -> None:
        code = compile(script, filename, "exec", flags=flags, dont_inherit=True)
        codes[(script, filename)] = code
        eval(code, globs, locs)

    _make._compile_and_eval = compile_and_keep
    for module in FRONT_END:
        importlib.import_module(module)
    from lsprotocol import types
    from pygls.protocol import default_converter

    # As the first `initialize` does: cattrs makes its own attrs classes on first use.
    converter = default_converter()
    converter.unstructure(converter.structure({"capabilities": {}}, types.InitializeParams))

    with open(store, "wb") as stream:
        marshal.dump((importlib.util.MAGIC_NUMBER, codes), stream)
    return len(codes)


if __name__ == "__main__":  # from the bundle: its folder is the first on sys.path
    print(f"attrs code of {record()} sources kept in {os.path.basename(STORE)}")
