// The status beside the title: mfls starting, ready, failed or stopped.
const status = document.getElementById("status");

// The status's text, and its state ("loading", "ready", "failed") when given.
export function showStatus(text, state) {
  if (text !== null) status.textContent = text;
  if (state) status.dataset.state = state;
}

export function statusFailed() {
  return status.dataset.state === "failed";
}
