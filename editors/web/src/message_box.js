// The message above the editor (what was opened, saved or refused), until dismissed: a
// sentence, and a link or a block of text to copy.
const box = document.getElementById("message");

export function say(text, kind, link, block) {
  box.dataset.kind = kind;
  box.querySelector(".text").textContent = text;
  const field = box.querySelector("input");
  field.hidden = !link;
  field.value = link || "";
  const area = box.querySelector("textarea");
  area.hidden = !block;
  area.value = block || "";
  box.hidden = false;
}

export function dismiss() {
  box.hidden = true;
}

box.querySelector("#dismiss").addEventListener("click", dismiss);
