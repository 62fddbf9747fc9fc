"""Reading the course map page (`mfls map -o`, `mfls.courseMap`): the JSON it carries."""

from __future__ import annotations

import json
import re
from typing import Any

_DATA = re.compile(r'<script type="application/json" id="map-data">(.*?)</script>', re.S)


def page_data(html: str) -> dict[str, Any]:
    """The course map the page's `map-data` script holds."""
    found = _DATA.search(html)
    assert found is not None, "the page holds no map-data script"
    data: dict[str, Any] = json.loads(found.group(1))
    return data
