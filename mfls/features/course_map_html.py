"""The course map as one self-contained HTML page: inline CSS and script, no request
leaves it (a Content-Security-Policy forbids any), and it opens from disk.

The map's data is embedded as JSON in a `<script type="application/json">` element
(`<`, `>`, `&` and the JavaScript line separators escaped), and the page's script draws
it with `textContent` only, so no author text (a title, a key) is ever read as markup.
Lessons are columns, questions lanes; lanes are grouped by the chapter (lesson group) of
their first place, groups collapse, and a search box filters them; only the lanes on
screen are drawn, so a course of thousands of lessons and keys stays quick.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any, Final

from mfls.features.course_map import CourseMap
from mfls.features.facts import KINDS, RANK

CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def embedded_json(value: Any) -> str:
    """`value` as JSON that can sit inside a `<script>` element of an HTML page."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def page_data(course_map: CourseMap, locations: Sequence[tuple[str, str | None]]) -> dict[str, Any]:
    """The map as the page's script reads it: the `CourseMap.to_json` fields, with each
    key a list `[key, group, askedIn, reads, readLessons, problems, places]` and each
    place `[lesson, kind index, line, column, text, choices, input, multiple]` (a
    course of 20,000 keys weighs a third of its JSON form)."""
    kinds = list(KINDS)
    kind_index = {kind: i for i, kind in enumerate(kinds)}
    keys = []
    for lane in course_map.keys:
        places = [
            [p.lesson, kind_index[p.kind], p.line, p.column, p.text]
            + ([list(p.choices), p.input, int(p.multiple)] if p.choices or p.input else [])
            for p in lane.places
        ]
        asked = lane.asked_in
        reads = lane.reads
        keys.append(
            [
                lane.key,
                lane.group,
                asked,
                len(reads),
                len({p.lesson for p in reads}),
                [problem.to_json() for problem in lane.problems],
                places,
            ]
        )
    return {
        "course": {"name": course_map.name, "root": course_map.root, "host": course_map.host},
        "summary": course_map.figures.sentence(),
        "legend": [{"kind": kind, "meaning": course_map.legend[kind]} for kind in kinds],
        "kinds": kinds,
        "rank": list(RANK),
        "lessons": [[x.title, x.kind, x.group] for x in course_map.lessons],
        "keys": keys,
        "locations": [[shown, file] for shown, file in locations],
    }


def map_html(
    course_map: CourseMap,
    locations: Sequence[tuple[str, str | None]] | None = None,
    csp: str = CSP,
) -> str:
    """The page. `locations`, one per lesson: how a place in it is named (a path, or an
    export's `FILE.json#title`) and the file an editor link opens (None: no link);
    by default the lesson's path and that path."""
    if locations is None:
        locations = [(lesson.path or lesson.uri, lesson.path) for lesson in course_map.lessons]
    data = page_data(course_map, locations)
    title = html.escape(f"{course_map.name} · course map", quote=True)
    return (
        _PAGE.replace("@@CSP@@", html.escape(csp, quote=True))
        .replace("@@TITLE@@", title)
        .replace("@@DATA@@", embedded_json(data))
    )


_PAGE: Final = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="@@CSP@@">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@TITLE@@</title>
<style>
:root { --w: 30px; --h: 24px; --label: 300px; --head: 170px;
  --fg: #1d2330; --muted: #5b6476; --line: #d9dde5; --bg: #ffffff; --band: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); display: flex; flex-direction: column;
  height: 100vh; }
header { padding: 10px 14px 6px; border-bottom: 1px solid var(--line); }
h1 { font-size: 17px; margin: 0 0 4px; }
#stats { color: var(--muted); }
#tools { display: flex; gap: 12px; align-items: center; margin-top: 6px; flex-wrap: wrap; }
#search { width: 260px; padding: 3px 6px; font: inherit; }
#legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 8px 0 2px; padding: 0;
  list-style: none; }
#legend li { display: flex; align-items: center; gap: 6px; }
main { flex: 1; display: flex; min-height: 0; }
#scroller { flex: 1; overflow: auto; position: relative; }
#heads { position: sticky; top: 0; z-index: 3; background: var(--bg); display: flex;
  height: var(--head); border-bottom: 1px solid var(--line); }
#corner { position: sticky; left: 0; z-index: 4; background: var(--bg);
  width: var(--label); min-width: var(--label); padding: 6px; color: var(--muted);
  display: flex; align-items: flex-end; border-right: 1px solid var(--line); }
.col { width: var(--w); min-width: var(--w); position: relative; border-right: 1px solid #eef0f4; }
.col span { position: absolute; left: 50%; bottom: 6px; transform-origin: left bottom;
  transform: rotate(-60deg); white-space: nowrap; max-width: calc(var(--head) * 1.3);
  overflow: hidden; text-overflow: ellipsis; font-size: 12px; }
.col.reference span { font-style: italic; color: var(--muted); }
.col.groupstart { border-left: 2px solid #aeb6c5; }
#lanes { position: relative; }
.row { position: absolute; left: 0; height: var(--h); display: flex; align-items: center;
  border-bottom: 1px solid #f0f2f6; }
.row:hover { background: #f7f9ff; }
.label { position: sticky; left: 0; z-index: 2; background: inherit; width: var(--label);
  min-width: var(--label); height: 100%; padding: 0 8px; display: flex; align-items: center;
  gap: 6px; border-right: 1px solid var(--line); cursor: pointer; overflow: hidden; }
.row { background: var(--bg); }
.label .key { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.label .warn { color: #b3261e; font-weight: 600; }
.row.group { background: var(--band); font-weight: 600; }
.row.group .label { cursor: pointer; }
.row.group .label::before { content: "\\25BE"; color: var(--muted); }
.row.group.closed .label::before { content: "\\25B8"; }
.cell { position: absolute; top: 0; width: var(--w); height: var(--h); display: flex;
  align-items: center; justify-content: center; cursor: pointer; border: 0;
  background: transparent; padding: 0; }
.cell:hover, .cell.selected { outline: 2px solid #3b6fd8; outline-offset: -2px; }
.mark { display: inline-block; width: 14px; height: 14px; }
.k-asked { background: #1f8f4e; border-radius: 50%; }
.k-legacy-profile { background: #b7791f; border-radius: 50%; }
.k-reference-binding { border: 3px solid #1f8f4e; border-radius: 50%; }
.k-read { background: #3b6fd8; width: 9px; height: 9px; border-radius: 2px; }
.k-read-before-asked { background: #e8790c; clip-path: polygon(50% 0, 100% 100%, 0 100%); }
.k-unbound { background: #c62828; clip-path: polygon(20% 0, 50% 30%, 80% 0, 100% 20%, 70% 50%,
  100% 80%, 80% 100%, 50% 70%, 20% 100%, 0 80%, 30% 50%, 0 20%); }
.k-near-miss { background: #8e44ad; transform: rotate(45deg); width: 11px; height: 11px; }
.k-reserved { background: repeating-linear-gradient(45deg, #5d1010 0 3px, #d05050 3px 6px);
  border-radius: 2px; }
.k-provided { border: 2px solid #6b7280; transform: rotate(45deg); width: 11px; height: 11px; }
.count { position: absolute; right: 1px; bottom: 0; font-size: 9px; color: var(--muted); }
#details { width: 380px; min-width: 300px; border-left: 1px solid var(--line); padding: 10px 12px;
  overflow: auto; }
#details h2 { font-size: 14px; margin: 0 0 6px; word-break: break-word; }
#details .place { border-top: 1px solid var(--line); padding: 6px 0; }
#details pre { background: var(--band); padding: 4px 6px; white-space: pre-wrap;
  word-break: break-word; margin: 4px 0; font-size: 12px; }
#details .where { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; }
#details code { font-size: 12px; word-break: break-all; }
#details .close { float: right; margin-left: 8px; font: inherit; cursor: pointer; }
.muted { color: var(--muted); }
#empty { padding: 20px; color: var(--muted); }
/* Beside a lesson (a web view of 400-600 px): the grid keeps the width, the details go
   below it and hold one line until a cell is chosen. */
@media (max-width: 760px) {
  :root { --head: 130px; }
  header { padding: 6px 10px 4px; }
  #legend { gap: 2px 10px; margin: 4px 0 0; font-size: 12px; }
  #search { width: auto; flex: 1 1 140px; min-width: 120px; }
  main { flex-direction: column; }
  #details { width: auto; min-width: 0; max-height: 40vh; flex: none; border-left: 0;
    border-top: 1px solid var(--line); padding: 6px 10px; }
  #details.idle p { margin: 0; }
}
</style>
</head>
<body>
<script type="application/json" id="map-data">@@DATA@@</script>
<header>
  <h1 id="course"></h1>
  <div id="stats"></div>
  <ul id="legend"></ul>
  <div id="tools">
    <input id="search" type="search" placeholder="Filter questions…" aria-label="Filter questions">
    <label><input id="problems" type="checkbox"> only questions with problems</label>
    <button id="collapse" type="button">Collapse all</button>
    <button id="expand" type="button">Expand all</button>
  </div>
</header>
<main>
  <div id="scroller">
    <div id="heads"><div id="corner">question \\ lesson</div></div>
    <div id="lanes"></div>
  </div>
  <aside id="details" class="idle"><p class="muted">Click a cell to see its lines.</p></aside>
</main>
<script>
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("map-data").textContent);
  const kinds = data.kinds;
  const lessons = data.lessons.map(function (x, i) {
    return { index: i, title: x[0], kind: x[1], group: x[2] };
  });
  const locations = data.locations.map(function (x) { return { shown: x[0], file: x[1] }; });
  const keys = data.keys.map(function (k) {
    return { key: k[0], group: k[1], askedIn: k[2], reads: k[3], readLessons: k[4],
      problems: k[5], places: k[6].map(function (p) {
        return { lesson: p[0], kind: kinds[p[1]], line: p[2], column: p[3], text: p[4],
          choices: p.length > 5 ? p[5] : null, input: p.length > 5 ? p[6] : null,
          multiple: p.length > 5 && p[7] === 1 };
      }) };
  });
  const meaning = {};
  for (const item of data.legend) meaning[item.kind] = item.meaning;
  const RANK = data.rank;
  const LARGE = lessons.length > 60;
  const root = document.documentElement;
  if (LARGE) { root.style.setProperty("--w", "14px"); root.style.setProperty("--head", "110px"); }
  const W = LARGE ? 14 : 30, H = 24;
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function mark(kind) { return el("span", "mark k-" + kind); }

  document.getElementById("course").textContent = data.course.name;
  document.title = data.course.name + " · course map";
  document.getElementById("stats").textContent = data.summary + " · host " + data.course.host;

  const legend = document.getElementById("legend");
  for (const item of data.legend) {
    const li = el("li");
    li.dataset.kind = item.kind;
    li.append(mark(item.kind), el("span", "", item.meaning));
    legend.append(li);
  }

  // Column heads: one per lesson; a line where a lesson group starts.
  const heads = document.getElementById("heads");
  lessons.forEach(function (lesson, i) {
    const col = el("div", "col " + lesson.kind);
    if (i > 0 && lesson.group !== lessons[i - 1].group) col.classList.add("groupstart");
    col.dataset.lesson = String(i);
    col.title = (i + 1) + ". " + lesson.title + (lesson.group ? "  (" + lesson.group + ")" : "");
    const text = el("span", "", LARGE ? (i % 10 === 0 ? String(i + 1) : "") : lesson.title);
    col.append(text);
    heads.append(col);
  });
  // The lane names' column: up to 300 px, as much as the cells leave, and at least 30% of
  // the window (110 px): beside a lesson the cells keep their room. A name cut short
  // keeps its whole text as the label's title.
  let labelWidth = 0, width = 0;
  function fitLabels() {
    const least = Math.max(110, window.innerWidth * 0.3);
    const left = window.innerWidth - lessons.length * W - 24;
    const wanted = Math.round(Math.min(300, Math.max(least, left)));
    if (wanted === labelWidth) return false;
    labelWidth = wanted;
    root.style.setProperty("--label", labelWidth + "px");
    width = labelWidth + lessons.length * W;
    heads.style.width = width + "px";
    return true;
  }
  fitLabels();

  // Lanes grouped by the lesson group of their first place; host keys on their own.
  const groups = [], byName = {};
  for (const k of keys) {
    let name;
    if (k.group === "system") name = "host-provided and reserved keys";
    else {
      const first = k.places.length ? lessons[k.places[0].lesson] : null;
      name = first ? (first.group || "(course folder)") : "(none)";
    }
    let group = byName[name];
    if (!group) {
      group = byName[name] = { name: name, keys: [], closed: false };
      groups.push(group);
    }
    group.keys.push(k);
  }
  if (keys.length > 3000) for (const g of groups) g.closed = true;

  for (const k of keys) {
    const cells = new Map();
    for (const p of k.places) {
      let c = cells.get(p.lesson);
      if (!c) { c = { lesson: p.lesson, places: [], kind: p.kind }; cells.set(p.lesson, c); }
      c.places.push(p);
      if (RANK.indexOf(p.kind) < RANK.indexOf(c.kind)) c.kind = p.kind;
    }
    k.cells = Array.from(cells.values());
    k.lower = k.key.toLowerCase();
  }

  const search = document.getElementById("search");
  const onlyProblems = document.getElementById("problems");
  let rows = [];
  function layout() {
    const needle = search.value.trim().toLowerCase();
    const filtering = needle !== "" || onlyProblems.checked;
    rows = [];
    for (const g of groups) {
      const shown = g.keys.filter(function (k) {
        return (!needle || k.lower.includes(needle)) &&
          (!onlyProblems.checked || k.problems.length);
      });
      if (!shown.length) continue;
      rows.push({ group: g, count: shown.length });
      if (!g.closed || filtering && needle) for (const k of shown) rows.push({ key: k });
    }
    lanes.style.height = rows.length * H + "px";
    lanes.style.width = width + "px";
    drawn = null;
    draw();
  }

  const scroller = document.getElementById("scroller");
  const lanes = document.getElementById("lanes");
  let drawn = null;
  function draw() {
    const small = rows.length <= 400;
    const first = small ? 0 : Math.max(0, Math.floor(scroller.scrollTop / H) - 30);
    const last = small ? rows.length : Math.min(rows.length,
      Math.ceil((scroller.scrollTop + scroller.clientHeight) / H) + 30);
    const span = first + ":" + last;
    if (drawn === span) return;
    drawn = span;
    lanes.textContent = "";
    if (!rows.length) {
      const none = el("div", "", "No question matches.");
      none.id = "empty";
      lanes.append(none);
    }
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) frag.append(row(rows[i], i));
    lanes.append(frag);
  }
  scroller.addEventListener("scroll", function () { window.requestAnimationFrame(draw); });
  window.addEventListener("resize", function () {
    if (fitLabels()) layout();
    else { drawn = null; draw(); }
  });

  function row(item, i) {
    const div = el("div", "row");
    div.style.top = i * H + "px";
    div.style.width = width + "px";
    if (item.group) {
      div.classList.add("group");
      if (item.group.closed) div.classList.add("closed");
      div.dataset.group = item.group.name;
      const head = el("div", "label");
      head.title = item.group.name;
      head.append(el("span", "key", item.group.name + " (" + item.count + ")"));
      head.addEventListener("click", function () {
        item.group.closed = !item.group.closed;
        layout();
      });
      div.append(head);
      return div;
    }
    const k = item.key;
    div.dataset.key = k.key;
    const name = el("div", "label");
    name.title = k.key;
    name.append(el("span", "key", k.key));
    if (k.problems.length) name.append(el("span", "warn", "!"));
    name.addEventListener("click", function () { showKey(k); });
    div.append(name);
    for (const c of k.cells) {
      const cell = el("button", "cell");
      cell.type = "button";
      cell.style.left = (labelWidth + c.lesson * W) + "px";
      cell.dataset.kind = c.kind;
      cell.dataset.lesson = String(c.lesson);
      cell.title = lessons[c.lesson].title + ": " + meaning[c.kind];
      cell.setAttribute("aria-label",
        k.key + " in " + lessons[c.lesson].title + ": " + meaning[c.kind]);
      cell.append(mark(c.kind));
      if (c.places.length > 1) cell.append(el("span", "count", String(c.places.length)));
      cell.addEventListener("click", function () { select(cell); showCell(k, c); });
      div.append(cell);
    }
    return div;
  }

  let selected = null;
  function select(cell) {
    if (selected) selected.classList.remove("selected");
    selected = cell;
    cell.classList.add("selected");
  }

  const details = document.getElementById("details");
  function clear(k) {
    details.textContent = "";
    details.classList.remove("idle");
    const close = el("button", "close", "\u00d7");
    close.type = "button";
    close.title = "Close the details";
    close.addEventListener("click", function () {
      details.textContent = "";
      details.classList.add("idle");
      details.append(el("p", "muted", "Click a cell to see its lines."));
      if (selected) selected.classList.remove("selected");
      selected = null;
    });
    details.append(close, el("h2", "", k.key));
  }
  function showKey(k) {
    clear(k);
    summary(k);
    for (const p of k.places) details.append(place(p, true));
  }
  function showCell(k, c) {
    clear(k);
    const lesson = lessons[c.lesson];
    details.append(el("div", "muted", "in " + (c.lesson + 1) + ". " + lesson.title +
      (lesson.kind === "reference" ? " (reference)" : "")));
    summary(k);
    for (const p of c.places) details.append(place(p, false));
  }
  function summary(k) {
    const asked = k.askedIn.map(function (i) { return lessons[i].title; });
    details.append(el("div", "muted",
      (asked.length ? "asked in " + asked.join(", ") : "asked nowhere") +
      " · read " + k.reads + " time" + (k.reads === 1 ? "" : "s") + " in " + k.readLessons +
      " lesson" + (k.readLessons === 1 ? "" : "s")));
    for (const problem of k.problems) {
      let text = problem.code + " × " + problem.count;
      if (problem.suggestion) text += ": did you mean “" + problem.suggestion + "”?";
      details.append(el("div", "warn", text));
    }
  }
  function place(p, named) {
    const box = el("div", "place");
    box.dataset.kind = p.kind;
    const head = el("div", "where");
    head.append(mark(p.kind), el("strong", "", meaning[p.kind]));
    box.append(head);
    const loc = locations[p.lesson];
    const at = loc.shown + ":" + p.line + ":" + p.column;
    if (named) box.append(el("div", "muted", lessons[p.lesson].title));
    box.append(el("pre", "line", p.line + " | " + p.text));
    if (p.choices && (p.choices.length || p.input !== null)) {
      const choices = p.choices.slice();
      if (p.input !== null && p.input !== undefined) choices.push("…" + p.input);
      box.append(el("div", "muted",
        (p.multiple ? "choose any of: " : "choices: ") + choices.join(" | ")));
    }
    const links = el("div", "where");
    if (loc.file) {
      const open = el("a", "open", "open in VS Code");
      open.href = "vscode://file" + encodeURI(loc.file.startsWith("/") ? loc.file : "/" + loc.file)
        .replace(/#/g, "%23").replace(/\\?/g, "%3F") + ":" + p.line + ":" + p.column;
      open.addEventListener("click", function (event) {
        if (vscode) {
          event.preventDefault();
          vscode.postMessage({ open: loc.file, line: p.line, column: p.column });
        }
      });
      links.append(open);
    }
    links.append(el("code", "path", at));
    box.append(links);
    return box;
  }

  search.addEventListener("input", layout);
  onlyProblems.addEventListener("change", layout);
  document.getElementById("collapse").addEventListener("click", function () {
    for (const g of groups) g.closed = true; layout();
  });
  document.getElementById("expand").addEventListener("click", function () {
    for (const g of groups) g.closed = false; layout();
  });
  layout();
  document.body.dataset.renderMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "true";
})();
</script>
</body>
</html>
"""
