// Driver of test_web_sparse_snapshot.py: editors/web/src/sparse_snapshot.js on snapshots
// shaped as Pyodide's (`makeMemorySnapshot`: a header whose second word is its length,
// then the memory), printed as JSON.
import { readSparseSnapshot, sparseSnapshot } from "../../editors/web/src/sparse_snapshot.js";

const PAGE = 4096;

// A snapshot: a 48-byte header (its JSON part made up), then `pages` pages of memory, the
// pages in `filled` holding bytes (one at each end of the page, so that a page with a single
// byte set at either end is kept), the others zero.
function snapshot(pages, filled) {
  const header = 48;
  const bytes = new Uint8Array(header + pages * PAGE);
  new Uint32Array(bytes.buffer, 0, 4).set([0x12345678, header, 5, 0]);
  bytes.set(new TextEncoder().encode('{"a":1}'), 16);
  for (const page of filled) {
    bytes[header + page * PAGE] = page + 1;
    bytes[header + page * PAGE + PAGE - 1] = 255;
  }
  return bytes;
}

function restored(sparse, heapLength) {
  const read = readSparseSnapshot(sparse);
  const heap = new Uint8Array(heapLength).fill(0xaa); // what a fresh module's memory held
  read.copyInto(heap);
  return { read, heap };
}

const results = {};
const original = snapshot(10, [0, 3, 4, 9]);
const sparse = sparseSnapshot(original);
const { read, heap } = restored(sparse, 12 * PAGE);
results.sizes = { original: original.length, sparse: sparse.length };
results.header = Array.from(read.header).join(",") === Array.from(original.subarray(0, 48)).join(",");
results.length = read.length;
results.memory = heap.subarray(0, read.length).every((byte, i) => byte === original[48 + i]);
results.beyond = heap.subarray(read.length).every((byte) => byte === 0xaa);
const empty = sparseSnapshot(snapshot(3, []));
results.emptySize = empty.length;
results.empty = restored(empty, 3 * PAGE).heap.every((byte) => byte === 0);
const refusals = {};
for (const [name, bytes] of Object.entries({
  cut: sparse.subarray(0, sparse.length - 1),
  longer: new Uint8Array([...sparse, 0, 0, 0, 0]),
  pyodide: original,
  empty: new Uint8Array(0),
})) {
  try {
    readSparseSnapshot(bytes);
    refusals[name] = null;
  } catch (error) {
    refusals[name] = error.message;
  }
}
results.refusals = refusals;
console.log(JSON.stringify(results));
