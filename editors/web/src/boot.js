// mfls's worker started before the page's own script (main.js, half a megabyte) is read, so
// Python loads while it is: main.js takes this worker (`window.mflsWorker`). Opened as
// `?ws=<URL>`, the page has no worker.
if (!new URLSearchParams(location.search).get("ws")) {
  window.mflsWorker = new Worker("worker.js", { type: "module" });
}
