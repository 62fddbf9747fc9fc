// The LSP transports @codemirror/lsp-client takes ({send, subscribe, unsubscribe}): over
// postMessage to the worker that runs mfls, or over a WebSocket to `mfls serve --ws`.

// @codemirror/lsp-client 6.3 declares pull diagnostics (`textDocument.diagnostic`) but
// never pulls: without this, a server that honours the declaration (mfls does) would
// wait to be asked and the editor would show no problems. It sends no `locale` either:
// the page's is added, for the server's messages in the page's language.
function initializeFor(message, text, locale) {
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
    send(text) {
      const message = JSON.parse(text);
      const initialize = message.method === "initialize";
      worker.postMessage({ lsp: initializeFor(message, text, locale), ...(initialize && { initialize }) });
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
// the socket is open (rejected if it never opens). When an open socket closes,
// `onClose(where, reason)` is called (`where`: the URL without its query, so no token),
// every request still waiting is answered with an error saying so (the client would wait
// for its timeout), every later one fails at once, and notifications are dropped.
export function webSocketTransport(url, locale, onClose) {
  const handlers = new Set();
  const waiting = new Set(); // ids of the requests sent and not answered yet
  const where = url.split("?")[0];
  const socket = new WebSocket(url);
  let opened = false;
  let closed = null;
  const deliver = (text) => {
    for (const handler of handlers) handler(text);
  };
  socket.addEventListener("message", (event) => {
    if (typeof event.data !== "string") return;
    // Read here only while a request waits (a publish can be large; the client reads it too).
    if (waiting.size) {
      try {
        const message = JSON.parse(event.data);
        if (message.method === undefined) waiting.delete(message.id);
      } catch {
        // The client reports what it cannot read.
      }
    }
    deliver(event.data);
  });
  socket.addEventListener("close", (event) => {
    if (!opened) return;
    closed = `mfls at ${where} closed the connection${event.reason ? `: ${event.reason}` : ""}`;
    const unanswered = [...waiting];
    waiting.clear();
    for (const id of unanswered) {
      deliver(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32099, message: closed } }));
    }
    onClose?.(where, event.reason);
  });
  return new Promise((resolve, reject) => {
    socket.addEventListener("error", () => reject(new Error(`cannot reach mfls at ${where}`)));
    socket.addEventListener("open", () => {
      opened = true;
      resolve({
        send(text) {
          const message = JSON.parse(text);
          const request = message.id !== undefined && message.method !== undefined;
          if (closed) {
            if (request) throw new Error(closed);
            return;
          }
          if (request) waiting.add(message.id);
          socket.send(initializeFor(message, text, locale));
        },
        subscribe(handler) {
          handlers.add(handler);
        },
        unsubscribe(handler) {
          handlers.delete(handler);
        },
      });
    });
  });
}
