// The LSP transports @codemirror/lsp-client takes ({send, subscribe, unsubscribe}): over
// postMessage to the worker that runs mfls, or over a WebSocket to `mfls serve --ws`.

// @codemirror/lsp-client 6.3 declares pull diagnostics (`textDocument.diagnostic`) but
// never pulls: without this, a server that honours the declaration (mfls does) would
// wait to be asked and the editor would show no problems. It sends no `locale` either:
// the page's is added, for the server's messages in the page's language.
function initializeFor(text, locale) {
  const message = JSON.parse(text);
  if (message.method !== "initialize") return text;
  delete message.params.capabilities?.textDocument?.diagnostic;
  message.params.locale = locale;
  return JSON.stringify(message);
}

export function workerTransport(worker, locale) {
  const handlers = new Set();
  worker.addEventListener("message", (event) => {
    if (event.data.lsp === undefined) return;
    for (const handler of handlers) handler(event.data.lsp);
  });
  return {
    send(message) {
      worker.postMessage({ lsp: initializeFor(message, locale) });
    },
    subscribe(handler) {
      handlers.add(handler);
    },
    unsubscribe(handler) {
      handlers.delete(handler);
    },
  };
}

// The same over a WebSocket to `mfls serve --ws` (one JSON-RPC message a text frame), once
// the socket is open.
export function webSocketTransport(url, locale) {
  const handlers = new Set();
  const socket = new WebSocket(url);
  socket.addEventListener("message", (event) => {
    if (typeof event.data !== "string") return;
    for (const handler of handlers) handler(event.data);
  });
  return new Promise((resolve, reject) => {
    socket.addEventListener("error", () => reject(new Error(`cannot reach mfls at ${url.split("?")[0]}`)));
    socket.addEventListener("open", () => resolve({
      send(message) {
        socket.send(initializeFor(message, locale));
      },
      subscribe(handler) {
        handlers.add(handler);
      },
      unsubscribe(handler) {
        handlers.delete(handler);
      },
    }));
  });
}
