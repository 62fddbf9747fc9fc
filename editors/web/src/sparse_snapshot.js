// A memory snapshot of Pyodide (`makeMemorySnapshot`: its header, then the whole of the
// module's memory) kept without the memory's pages that are all zero: about half of
// mfls's 54 MB are, so a second visit reads half the bytes from the cache. Kept as:
//   16 bytes: MAGIC, the length of Pyodide's header, the memory's length, PAGE
//   Pyodide's header as it is
//   one bit a page of the memory (1: kept), padded to 16 bytes
//   the kept pages, in order.
const MAGIC = 0x3153464d; // "MFS1"
const PAGE = 4096;
const INTRO = 16;

const padded = (length) => Math.ceil(length / 16) * 16;

// Pyodide's snapshot (a Uint8Array from makeMemorySnapshot) without its zero pages.
export function sparseSnapshot(snapshot) {
  const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1];
  const memory = snapshot.slice(header); // its own buffer: aligned for the word view
  if (memory.length % PAGE !== 0) throw new Error(`a memory of ${memory.length} bytes, not whole pages`);
  const pages = memory.length / PAGE;
  const words = new Uint32Array(memory.buffer);
  const kept = new Uint8Array(padded(Math.ceil(pages / 8)));
  let keptPages = 0;
  for (let page = 0; page < pages; page++) {
    const last = (page + 1) * (PAGE / 4);
    for (let word = page * (PAGE / 4); word < last; word++) {
      if (words[word] !== 0) {
        kept[page >> 3] |= 1 << (page & 7);
        keptPages += 1;
        break;
      }
    }
  }
  const out = new Uint8Array(INTRO + header + kept.length + keptPages * PAGE);
  new Uint32Array(out.buffer, 0, 4).set([MAGIC, header, memory.length, PAGE]);
  out.set(snapshot.subarray(0, header), INTRO);
  out.set(kept, INTRO + header);
  let at = INTRO + header + kept.length;
  for (let page = 0; page < pages; page++) {
    if (!(kept[page >> 3] & (1 << (page & 7)))) continue;
    out.set(memory.subarray(page * PAGE, (page + 1) * PAGE), at);
    at += PAGE;
  }
  return out;
}

// What a sparse snapshot holds: Pyodide's header (a snapshot of no memory, for its
// `restoreSnapshot`), the memory's length, and `copyInto(heap)`, which writes the memory
// into the module's (a Uint8Array at least that long): the kept pages, zeros between them.
// Throws on bytes that are not a sparse snapshot.
export function readSparseSnapshot(bytes) {
  if (bytes.length < INTRO || bytes.byteOffset % 4 !== 0) throw new Error("not a sparse snapshot");
  const [magic, header, length, pageSize] = new Uint32Array(bytes.buffer, bytes.byteOffset, 4);
  if (magic !== MAGIC || pageSize !== PAGE || length % PAGE !== 0) throw new Error("not a sparse snapshot");
  const pages = length / PAGE;
  const kept = bytes.subarray(INTRO + header, INTRO + header + padded(Math.ceil(pages / 8)));
  let keptPages = 0;
  for (let page = 0; page < pages; page++) if (kept[page >> 3] & (1 << (page & 7))) keptPages += 1;
  const start = INTRO + header + kept.length;
  if (header % 16 !== 0 || bytes.length !== start + keptPages * PAGE) throw new Error("a sparse snapshot cut short");
  return {
    header: bytes.subarray(INTRO, INTRO + header),
    length,
    copyInto(heap) {
      let at = start;
      // Runs of kept pages are copied in one go, runs of zero pages filled in one go.
      for (let page = 0; page < pages;) {
        const keep = Boolean(kept[page >> 3] & (1 << (page & 7)));
        let end = page + 1;
        while (end < pages && Boolean(kept[end >> 3] & (1 << (end & 7))) === keep) end += 1;
        const from = page * PAGE;
        const to = end * PAGE;
        if (keep) {
          heap.set(bytes.subarray(at, at + to - from), from);
          at += to - from;
        } else {
          heap.fill(0, from, to);
        }
        page = end;
      }
    },
  };
}
