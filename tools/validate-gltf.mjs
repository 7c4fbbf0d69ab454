#!/usr/bin/env node
// Runs the Khronos glTF-Validator (npm gltf-validator, installed under tools/node) on every file
// given on the command line. Prints the issue counts per file and each error/warning; exits 1 when
// any file has errors or warnings (infos and hints are printed as counts only).
//   npm install --prefix tools/node        (once; package.json pins the validator)
//   node tools/validate-gltf.mjs out/*.gltf out/*.glb
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, 'node', 'package.json'));
const validator = require('gltf-validator');

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const verbose = process.argv.includes('--verbose');
if (files.length === 0) {
  console.error('usage: node tools/validate-gltf.mjs FILE.gltf|FILE.glb ...');
  process.exit(2);
}

let bad = 0;
for (const file of files) {
  let report;
  try {
    const bytes = new Uint8Array(await readFile(file));
    report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
  } catch (e) {
    console.log(`${file}: validator failed: ${e}`);
    bad++;
    continue;
  }
  const n = report.issues;
  console.log(
    `${file}: ${n.numErrors} errors, ${n.numWarnings} warnings, ${n.numInfos} infos, ${n.numHints} hints`,
  );
  for (const m of n.messages) {
    if (m.severity <= 1 || verbose)
      console.log(`  [${['error', 'warning', 'info', 'hint'][m.severity]}] ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  }
  if (n.numErrors > 0 || n.numWarnings > 0) bad++;
}
console.log(`${files.length} files, ${bad} with errors or warnings`);
process.exit(bad > 0 ? 1 : 0);
