// Reference tokenization for the bring-your-own-model test fixture:
// encodes each text argument with @huggingface/tokenizers (the JS port of
// the Hugging Face tokenizers) and prints [{ids, tokens}] as JSON.
//
// Usage: node byo_expected.mjs tokenizer.json TEXT...
// The package is looked up from the working directory, then NODE_PATH.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [tokPath, ...texts] = process.argv.slice(2);
const require = createRequire(path.join(process.cwd(), "noop.js"));
let mod;
try {
  mod = await import(require.resolve("@huggingface/tokenizers"));
} catch (e) {
  console.error("cannot load @huggingface/tokenizers:", e.message);
  process.exit(2);
}
const json = JSON.parse(readFileSync(tokPath, "utf8"));
const cfgPath = path.join(path.dirname(tokPath), "tokenizer_config.json");
const cfg = JSON.parse(readFileSync(cfgPath, "utf8"));
const Tokenizer = mod.Tokenizer ?? mod.default?.Tokenizer;
const tok = new Tokenizer(json, cfg);
// The package does not export package.json; find it from the entry point.
let dir = path.dirname(require.resolve("@huggingface/tokenizers"));
while (!dir.endsWith(path.join("@huggingface", "tokenizers")) && dir !== path.dirname(dir)) dir = path.dirname(dir);
const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
const out = texts.map((t) => {
  const e = tok.encode(t);
  return { ids: e.ids, tokens: e.tokens, version: pkg.version };
});
console.log(JSON.stringify(out));
