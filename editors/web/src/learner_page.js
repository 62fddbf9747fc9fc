// AI-Shifu's learner page reading one interaction line, with its own parser: remark-flow
// from npm, in the pipeline of markdown-flow-ui's ContentRender (remark-parse, remark-gfm,
// remark-math, then remark-flow's plugin), as tests/hosts/remark_flow/page.mjs runs it for
// the differential test of mfls's model. Loaded only when the Learner view opens (its own
// chunk): nothing here is on the way to the first problems.
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import * as flow016 from "remark-flow-016";
import * as flow100a7 from "remark-flow-100a7";

// The versions npm serves here: 0.1.6 is the one markdown-flow-ui 0.1.x pins and bundles.
export const PAGE_VERSIONS = {
  "remark-flow-0.1.6": flow016.remarkFlow,
  "remark-flow-1.0.0-alpha.7": flow100a7.remarkFlow,
};

const processors = new Map();

function processor(version) {
  if (!processors.has(version)) {
    processors.set(version, unified().use(remarkParse).use(remarkGfm).use(remarkMath).use(PAGE_VERSIONS[version]));
  }
  return processors.get(version);
}

// The line as `version` shows it: `elements`, the properties of each interaction the page
// makes (variableName, buttonTexts, buttonValues, placeholder, isMultiSelect), and `text`,
// the text the learner sees around them (all of the line when it makes none).
export function readLine(line, version) {
  const pipeline = processor(version);
  const tree = pipeline.runSync(pipeline.parse(line));
  const elements = [];
  const shown = [];
  const walk = (node) => {
    if (node.type === "element" && node.data?.hName === "custom-variable") {
      elements.push(node.data.hProperties);
      return;
    }
    if (node.type === "text" || node.type === "inlineCode") shown.push(node.value);
    for (const child of node.children || []) walk(child);
  };
  walk(tree);
  return { elements, text: shown.join("") };
}
