// The course as a zip (fflate), a bundle of its own imported only when one is downloaded.
import { strToU8, zipSync } from "fflate";

// `files`: path -> text or bytes (a Uint8Array).
export function courseZip(files) {
  const entries = {};
  for (const [path, content] of Object.entries(files)) {
    entries[path] = [typeof content === "string" ? strToU8(content) : content, { mtime: new Date(1980, 0, 1) }];
  }
  return zipSync(entries, { level: 6 });
}
