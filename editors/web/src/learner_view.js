// The Learner view: the lesson last shown in the editor as AI-Shifu's learner page shows it. Each interaction
// line is read by the page's own parser (remark-flow, `learner_page.js`, imported only when
// the pane first opens) and drawn as the learner's buttons and inputs; a line the page
// cannot read is shown as the raw text the learner gets, a binding it reads no variable
// from is said to store nothing, and the page's problems on the line (mfls's `page-*`
// codes) link to the line in the editor. The prompt between interactions is what the AI
// writes from: one row each, with its lines.
import { t } from "./i18n.js";

const INTERACTION = /^\s*\?\[.*\]\s*$/;
const BINDS = /^\s*\?\[\s*%?\{\{/; // the author meant to store the answer
const SEPARATOR = /^\s*---+\s*$/;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// One interaction as the page's `custom-variable` component draws it.
function widget(properties) {
  const box = element("div", "learner-widget");
  const buttons = properties.buttonTexts ?? [];
  const several = properties.isMultiSelect === true;
  buttons.forEach((label, index) => {
    const button = element("button", several ? "learner-choice several" : "learner-choice", label);
    button.type = "button";
    const value = properties.buttonValues?.[index];
    if (value !== undefined && value !== label) button.title = value;
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => {
      const pressed = button.getAttribute("aria-pressed") !== "true";
      if (!several) for (const other of box.querySelectorAll("button")) other.setAttribute("aria-pressed", "false");
      button.setAttribute("aria-pressed", String(pressed));
    });
    box.append(button);
  });
  if (properties.placeholder !== undefined) {
    const input = element("input", "learner-input");
    input.type = "text";
    input.placeholder = properties.placeholder;
    box.append(input);
  }
  const notes = [];
  if (several) notes.push(t("learnerSeveral"));
  if (properties.variableName !== undefined) notes.push(t("learnerSavedAs", properties.variableName));
  if (notes.length) box.append(element("div", "learner-caption", notes.join(" · ")));
  return box;
}

export function learnerView({ aside, lesson, problemsOf, goTo }) {
  const pane = aside.querySelector("#learner-view");
  const select = pane.querySelector("#page-version");
  const list = pane.querySelector(".learner-lesson");
  const path = pane.querySelector(".learner-path");
  let page = null; // learner_page.js, once loaded
  let frame = 0;

  function interaction(line, index, uri, diagnostics) {
    const item = element("li", "learner-interaction");
    item.dataset.line = String(index + 1);
    const reading = page.readLine(line.trim(), select.value);
    for (const properties of reading.elements) item.append(widget(properties));
    if (!reading.elements.length) {
      item.classList.add("unread");
      item.append(element("div", "learner-warning", t("learnerRaw")), element("div", "learner-raw", reading.text));
    } else if (BINDS.test(line) && !reading.elements.some((e) => e.variableName !== undefined)) {
      item.classList.add("unread");
      item.append(element("div", "learner-warning", t("learnerNoVariable")));
    }
    for (const diagnostic of diagnostics) {
      if (diagnostic.range.start.line !== index || !String(diagnostic.code ?? "").startsWith("page-")) continue;
      // Its first sentence; the whole message as the link's title.
      const first = /^.*?(?:\.(?=\s|$)|。)/.exec(diagnostic.message)?.[0] ?? diagnostic.message;
      const link = element("a", "learner-problem", `${diagnostic.code}: ${first}`);
      link.href = "#";
      link.title = diagnostic.message;
      link.addEventListener("click", (event) => {
        event.preventDefault();
        goTo(uri, diagnostic);
      });
      item.append(link);
    }
    return item;
  }

  function prompt(from, to, first) {
    const item = element("li", "learner-ai");
    item.dataset.line = String(from + 1);
    item.append(element("span", "learner-ai-lines", t("learnerAi", from + 1, to + 1)), ` ${first.trim().slice(0, 80)}`);
    return item;
  }

  function render() {
    frame = 0;
    const open = lesson();
    if (!open) {
      path.textContent = "";
      list.replaceChildren(element("li", "learner-empty", t("learnerNoLesson")));
      return;
    }
    const diagnostics = problemsOf(open.uri);
    const items = [];
    let block = null; // the prompt being gathered: [from, to, first line]
    const flush = () => {
      if (block) items.push(prompt(...block));
      block = null;
    };
    open.text.split(/\r?\n/).forEach((line, index) => {
      if (INTERACTION.test(line)) {
        flush();
        items.push(interaction(line, index, open.uri, diagnostics));
      } else if (SEPARATOR.test(line)) {
        flush();
      } else if (line.trim()) {
        if (block) block[1] = index;
        else block = [index, index, line];
      }
    });
    flush();
    list.replaceChildren(...items);
    path.textContent = open.path;
    pane.dataset.version = select.value;
  }

  // Drawn again on the next frame (many updates come together: a publish, a file shown).
  function update() {
    if (pane.hidden || !page || frame) return;
    frame = requestAnimationFrame(render);
  }

  async function open() {
    aside.dataset.view = "learner";
    pane.hidden = false;
    if (!page) {
      list.replaceChildren(element("li", "learner-empty", t("learnerLoading")));
      page = await import("./learner_page.js");
      for (const version of Object.keys(page.PAGE_VERSIONS)) {
        const option = element("option", "", version.replace("remark-flow-", "remark-flow "));
        option.value = version;
        select.append(option);
      }
    }
    render();
  }

  function close() {
    aside.dataset.view = "map";
    pane.hidden = true;
  }

  aside.querySelector("#open-learner-view").addEventListener("click", open);
  pane.querySelector("#close-learner-view").addEventListener("click", close);
  select.addEventListener("change", render);
  return { update };
}
