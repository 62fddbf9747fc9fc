// A lesson carried in the page's address, after `#lesson=`: its path and text as JSON,
// compressed with the browser's CompressionStream (deflate-raw) and written in base64url.
// The fragment never leaves the browser: nothing is sent anywhere.
export const SHARE_PREFIX = "#lesson=";
export const MOST_SHARED_CHARACTERS = 32000; // of the fragment: what chat apps and browsers keep

async function piped(bytes, stream) {
  const body = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function base64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function shareFragment(path, text) {
  const json = new TextEncoder().encode(JSON.stringify({ path, text }));
  return SHARE_PREFIX + base64url(await piped(json, new CompressionStream("deflate-raw")));
}

// The lesson of a fragment: null when there is none, {path, text} when it reads, or
// throws when it is too long or does not read as a lesson.
export async function sharedLesson(hash) {
  if (!hash.startsWith(SHARE_PREFIX)) return null;
  if (hash.length > MOST_SHARED_CHARACTERS) throw new Error("too long");
  const json = await piped(fromBase64url(hash.slice(SHARE_PREFIX.length)), new DecompressionStream("deflate-raw"));
  const lesson = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  if (typeof lesson?.path !== "string" || typeof lesson?.text !== "string") throw new Error("not a lesson");
  return lesson;
}
