"""An AI-Shifu export as the course folder the platform's course tool writes (`pull` of
`shifu-cli.py`, ai-shifu/skills commit 959e0b6da951710a68f2f0098a4d8c7877898e3c; the
layout of `references/cli/course-directory-spec.md` at 01ca5e76fc455780db191b9eca943f32987f7cb9),
plus the manifest `layout.MANIFEST`, so `packing.pack` gives the export back.

As `pull` does (`_flatten_outline_tree`, `_pull_into_dir`), the outline is walked depth
first; an item with children, or at the top, is a chapter; every other item is a lesson,
`lessons/lesson-NN.md` in that order, holding its `content`. `structure.json` lists the
top-level chapters with the lessons directly under each (`file` relative to `lessons/`,
`title`, `access`, `hidden`); `.shifu-sync.json` lists every item (`file` relative to the
course root) with the `content_sha256` of its text; `README.md` holds `# <title>`,
`course-prompt.md` the course's `llm_system_prompt`, `course-description.md` its
`description`, `course-config.json` its settings. Texts `pull` writes no file for (a
chapter's own content, an item's `llm_system_prompt`, items outside the structure) stay
in the manifest, so `pack` still writes them back.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Final

from mfls.exports.ai_shifu import Export, Node
from mfls.exports.layout import (
    CONTENT_FIELD,
    DEFAULT_FORMAT,
    FILE_KEY,
    MANIFEST,
    MANIFEST_KIND,
    MANIFEST_VERSION,
    PROMPT_FIELD,
    CourseFolder,
    Placed,
    dump_json,
    encode_text,
    json_format,
)

LAYOUT: Final = "course-creator"
DESCRIPTION_FIELD: Final = "description"
ACCESS: Final = {400: "guest", 401: "trial", 402: "normal"}
"""The platform's learning-access types (`UNIT_TYPE_VALUES` of its `shifu/consts.py`):
an export holds the number, the course tool the name."""
CONFIG_FROM_EXPORT: Final[tuple[tuple[str, str | None, Any], ...]] = (
    ("model", "llm", ""),
    ("temperature", "llm_temperature", 0.3),
    ("price", "price", 0),
    ("keywords", "keywords", []),
    ("avatar", None, ""),
    ("use_learner_language", None, False),
    ("tts_enabled", None, False),
    ("tts_provider", None, ""),
    ("tts_model", None, ""),
    ("tts_voice_id", None, ""),
    ("tts_speed", None, 1.0),
    ("tts_pitch", None, 0),
    ("tts_emotion", None, ""),
    ("ask_enabled_status", "ask_enabled_status", 5101),
    ("ask_model", "ask_llm", ""),
    ("ask_temperature", "ask_llm_temperature", 0.0),
    ("ask_system_prompt", "ask_llm_system_prompt", ""),
    ("ask_provider_config", None, {}),
)
"""`course-config.json`: the tool's `COURSE_CONFIG_DEFAULTS` keys in its order, each with
the export's field that holds it (None: an export has none; the tool's default)."""


def content_sha256(text: str) -> str:
    """`_sha256_text` of `shifu-cli.py`: SHA-256 of the text as UTF-8."""
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def _pulled_json(value: Any) -> bytes:
    """JSON as the tool writes it: indent 2, not ASCII-only, a final newline."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode(
        "utf-8", errors="surrogatepass"
    )


@dataclass
class _Flat:
    """`_flatten_outline_tree` of the export's outline: (item index, parent index, chapter)."""

    nodes: list[tuple[int, int | None, bool]] = field(default_factory=list)

    def walk(self, nodes: tuple[Node, ...], parent: int | None, depth: int) -> None:
        for node in nodes:
            self.nodes.append((node.item, parent, bool(node.children) or depth == 0))
            self.walk(node.children, node.item, depth + 1)


def _access(value: Any) -> str:
    """`access` as `pull` writes it: the type's name, "guest" when there is none."""
    return (ACCESS.get(value) if isinstance(value, int) else None) or "guest"


def _keywords(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return [k.strip() for k in value.split(",") if k.strip()]
    return []


def _course_config(shifu: dict[str, Any]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for key, source, default in CONFIG_FROM_EXPORT:
        value = shifu.get(source) if source is not None else None
        config[key] = value if value is not None else default
    config["keywords"] = _keywords(config["keywords"])
    return config


def unpack_course_creator(export: Export, source: bytes, source_name: str) -> CourseFolder:
    """The course tool's folder of `export` (read from the bytes `source`, a file called
    `source_name`), with the manifest."""
    flat = _Flat()
    flat.walk(export.outline, None, 0)
    items, shifu = export.items, export.shifu
    # The manifest's export: a copy of the tables that get a file's reference, the rest
    # shared with `export.data` (a deep copy recursed once per level of nesting).
    stored = dict(export.data)
    stored["shifu"] = dict(shifu)
    stored["outline_items"] = [dict(item) for item in items]
    files: dict[str, bytes] = {}
    placed: list[Placed] = []
    file_of: dict[int, str] = {}
    sync_lessons: list[dict[str, Any]] = []
    for index, parent, chapter in flat.nodes:
        item = items[index]
        bid = item["outline_item_bid"]
        parent_bid = items[parent]["outline_item_bid"] if parent is not None else ""
        if chapter:
            sync_lessons.append(
                {
                    "file": None,
                    "outline_bid": bid,
                    "name": item["title"],
                    "parent_bid": parent_bid,
                    "revision": None,
                    "is_chapter": True,
                    "content_sha256": None,
                }
            )
            continue
        path = f"lessons/lesson-{len(file_of) + 1:02d}.md"
        file_of[index] = path
        files[path] = encode_text(item[CONTENT_FIELD])
        stored["outline_items"][index][CONTENT_FIELD] = {FILE_KEY: path}
        placed.append(Placed(path, index, CONTENT_FIELD, item["title"], bid, True))
        sync_lessons.append(
            {
                "file": path,
                "outline_bid": bid,
                "name": item["title"],
                "parent_bid": parent_bid,
                "revision": None,
                "is_chapter": False,
                "content_sha256": content_sha256(item[CONTENT_FIELD]),
            }
        )
    chapters = []
    for index, parent, chapter in flat.nodes:
        if not chapter or parent is not None:
            continue
        lessons = []
        for child, child_parent, child_chapter in flat.nodes:
            if child_parent == index and not child_chapter:
                item = items[child]
                lessons.append(
                    {
                        "file": file_of[child].split("/", 1)[1],
                        "title": item["title"],
                        "access": _access(item.get("type")),
                        "hidden": bool(item.get("hidden")),
                    }
                )
        chapters.append({"title": items[index]["title"], "lessons": lessons})
    prompt = shifu.get(PROMPT_FIELD)
    files["course-prompt.md"] = encode_text(prompt if isinstance(prompt, str) else "")
    if isinstance(prompt, str):
        stored["shifu"][PROMPT_FIELD] = {FILE_KEY: "course-prompt.md"}
        title = shifu["title"]
        shifu_bid = shifu.get("shifu_bid")
        bid = shifu_bid if isinstance(shifu_bid, str) else ""
        placed.append(Placed("course-prompt.md", None, PROMPT_FIELD, title, bid, False))
    description = shifu.get(DESCRIPTION_FIELD)
    files["course-description.md"] = encode_text(
        description if isinstance(description, str) else ""
    )
    if isinstance(description, str):
        stored["shifu"][DESCRIPTION_FIELD] = {FILE_KEY: "course-description.md"}
    files["README.md"] = encode_text(f"# {shifu['title']}\n")
    files["structure.json"] = _pulled_json({"chapters": chapters})
    files["course-config.json"] = _pulled_json(_course_config(shifu))
    shifu_bid = shifu.get("shifu_bid")
    files[".shifu-sync.json"] = _pulled_json(
        {
            "schema_version": 1,
            "shifu_bid": shifu_bid if isinstance(shifu_bid, str) else None,
            "base_url": None,
            "course": {
                "revision": None,
                "name": shifu["title"],
                "description": description if isinstance(description, str) else "",
                "updated_at": None,
                "updated_user_bid": None,
            },
            "lessons": sync_lessons,
            "last_pull_at": None,
            "last_push_at": None,
        }
    )
    manifest = {
        "manifest": MANIFEST_KIND,
        "manifest_version": MANIFEST_VERSION,
        "layout": LAYOUT,
        "export_file": source_name,
        "json_format": json_format(export.data, source),
        "export": stored,
    }
    files[MANIFEST] = dump_json(manifest, {**DEFAULT_FORMAT, "ensure_ascii": False})
    return CourseFolder(files, tuple(placed))
