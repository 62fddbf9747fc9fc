// The learner page's reading of interaction lines, by the real remark-flow packages.
//
// Usage: node page.mjs VERSION < lines.json > readings.json
// VERSION is "remark-flow-0.1.6" or "remark-flow-1.0.0-alpha.7". The input is a JSON
// array of lines (strings); the output is a JSON array with one reading per line:
//   {"elements": [hProperties, ...], "text": "...", "blocks": ["paragraph", ...]}
// `elements` are the `custom-variable` nodes remark-flow made, in document order, each
// with the properties the page's CustomVariable component renders (variableName,
// buttonTexts, buttonValues, placeholder, isMultiSelect); `text` is what the learner sees
// as text around them (the text nodes of the tree, joined); `blocks` the top-level node
// types. The pipeline is markdown-flow-ui's ContentRender (remark-gfm, remark-math,
// remark-flow; remark-breaks only turns line endings into breaks, and a line has none).
import { createRequire } from "node:module";
import { text } from "node:stream/consumers";
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";

const require = createRequire(import.meta.url);
const PACKAGES = {
  "remark-flow-0.1.6": "remark-flow-016",
  "remark-flow-1.0.0-alpha.7": "remark-flow-100a7",
};

const version = process.argv[2];
if (!(version in PACKAGES)) {
  process.stderr.write(`unknown page version ${version}\n`);
  process.exit(2);
}
const remarkFlow = require(PACKAGES[version]).remarkFlow;
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkMath).use(remarkFlow);

function read(line) {
  const tree = processor.runSync(processor.parse(line));
  const elements = [];
  const shown = [];
  const walk = (node) => {
    if (node.type === "element" && node.data && node.data.hName === "custom-variable") {
      elements.push(node.data.hProperties);
      return;
    }
    if (node.type === "text") shown.push(node.value);
    for (const child of node.children || []) walk(child);
  };
  walk(tree);
  return { elements, text: shown.join(""), blocks: tree.children.map((c) => c.type) };
}

const lines = JSON.parse(await text(process.stdin));
process.stdout.write(JSON.stringify(lines.map(read)));
