"""Where the real AI-Shifu course exports are, for the tests that read them."""

from __future__ import annotations

import os
from pathlib import Path


def shared_exports() -> Path | None:
    """The real AI-Shifu exports: the folder `MFLS_AI_SHIFU_EXPORTS` names, else
    `shared/data/ai-shifu` beside an ancestor of this checkout (as CI lays it out)."""
    given = os.environ.get("MFLS_AI_SHIFU_EXPORTS")
    if given:
        return Path(given)
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "data" / "ai-shifu"
        if candidate.is_dir():
            return candidate
    return None
