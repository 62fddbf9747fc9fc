// The host and target picker: mfcourse.toml's `host` and `target`, written in the file
// (as an edit of its editor, which reaches mfls as typing does), and shown as the file has
// them, however it was edited. The target may be left to the host's default.
import { t } from "./i18n.js";
import { HOSTS, TARGETS, settingChange, settingOf } from "./course_settings.js";

function options(select, values, first) {
  select.replaceChildren(...[...first, ...values.map((value) => [value, value])].map(([value, label]) => new Option(label, value)));
}

export function coursePickers(state) {
  const hostPicker = document.getElementById("host-picker");
  const targetPicker = document.getElementById("target-picker");
  options(hostPicker, HOSTS, []);
  options(targetPicker, TARGETS, [["", t("hostDefault")]]);

  function pick(key, value) {
    const view = state.views.get("mfcourse.toml");
    if (!view) return;
    const change = settingChange(state.textOf("mfcourse.toml"), key, value);
    if (change) view.dispatch({ changes: change, userEvent: "input" });
  }
  hostPicker.addEventListener("change", () => pick("host", hostPicker.value));
  targetPicker.addEventListener("change", () => pick("target", targetPicker.value || null));

  // The pickers as mfcourse.toml has them now.
  return function fromFile() {
    const view = state.views.get("mfcourse.toml");
    const text = view ? state.textOf("mfcourse.toml") : "";
    hostPicker.disabled = targetPicker.disabled = !view;
    for (const [select, key, absent] of [[hostPicker, "host", "generic"], [targetPicker, "target", ""]]) {
      const value = settingOf(text, key) ?? absent;
      select.querySelector("option.unknown")?.remove();
      if (![...select.options].some((option) => option.value === value)) {
        const unknown = new Option(t("unknownSetting", value), value);
        unknown.className = "unknown";
        select.append(unknown);
      }
      select.value = value;
    }
  };
}
