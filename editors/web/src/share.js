// A course carried in the page's address, after `#course=`: every file's path and text as
// JSON, compressed with the browser's CompressionStream (deflate-raw) and written in
// base64url. Links of one lesson (`#lesson=`, what the page shared before) still open.
// The fragment never leaves the browser: nothing is sent anywhere.
export const SHARE_PREFIX = "#lesson=";
export const COURSE_PREFIX = "#course=";
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

async function packed(prefix, value) {
  const json = new TextEncoder().encode(JSON.stringify(value));
  return prefix + base64url(await piped(json, new CompressionStream("deflate-raw")));
}

async function unpacked(hash, prefix) {
  if (hash.length > MOST_SHARED_CHARACTERS) throw new Error("too long");
  const json = await piped(fromBase64url(hash.slice(prefix.length)), new DecompressionStream("deflate-raw"));
  return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
}

export function shareFragment(path, text) {
  return packed(SHARE_PREFIX, { path, text });
}

export function courseFragment(files) {
  return packed(COURSE_PREFIX, { files });
}

export function isShareLink(hash) {
  return hash.startsWith(SHARE_PREFIX) || hash.startsWith(COURSE_PREFIX);
}

// The lesson of a fragment: null when there is none, {path, text} when it reads, or
// throws when it is too long or does not read as a lesson.
export async function sharedLesson(hash) {
  if (!hash.startsWith(SHARE_PREFIX)) return null;
  const lesson = await unpacked(hash, SHARE_PREFIX);
  if (typeof lesson?.path !== "string" || typeof lesson?.text !== "string") throw new Error("not a lesson");
  return lesson;
}

// The course of a fragment: null when there is none, {path: text} when it reads, or throws
// when it is too long or does not read as a course (no files, a text that is no string).
// Its paths are held to mfls's one rule by the worker (mfls.lsp.playground.page_path),
// which leaves out and names what it refuses.
export async function sharedCourse(hash) {
  if (!hash.startsWith(COURSE_PREFIX)) return null;
  const files = (await unpacked(hash, COURSE_PREFIX))?.files;
  if (!files || typeof files !== "object" || Array.isArray(files)) throw new Error("not a course");
  const entries = Object.entries(files);
  if (!entries.length || !entries.every(([, text]) => typeof text === "string")) {
    throw new Error("not a course");
  }
  return Object.fromEntries(entries);
}
