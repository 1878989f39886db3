'use strict';
// Runs the READMEs' snippets as a user would: a script in an empty folder whose
// `require('libscatter')` finds the package under test; what it prints must be the README's
// output block, exactly.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { root, source } = require('./package');

const CODE = /<!-- readme-test: js -->\n```js\n([\s\S]*?)```/;
const OUTPUT = /<!-- readme-test: js output -->\n```text\n([\s\S]*?)```/;

// The package's README and, in the source tree, the repository's README (its JavaScript section).
const READMES = [path.join(source, 'README.md'), path.join(source, '..', '..', 'README.md')]
  .filter((file, i) => i === 0 || fs.existsSync(file));

for (const file of READMES) {
  test(`the snippet of ${path.relative(path.join(source, '..', '..'), file)} prints what it says`, (t) => {
    const readme = fs.readFileSync(file, 'utf8');
    const code = CODE.exec(readme);
    const output = OUTPUT.exec(readme);
    assert.ok(code, `${file} has a \`\`\`js block after <!-- readme-test: js -->`);
    assert.ok(output, `${file} has a \`\`\`text block after <!-- readme-test: js output -->`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scatter-js-readme-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(root, path.join(dir, 'node_modules', 'libscatter'), 'dir');
    fs.writeFileSync(path.join(dir, 'snippet.js'), code[1]);
    const run = spawnSync(process.execPath, ['snippet.js'], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, `the snippet failed:\n${run.stderr}`);
    assert.equal(run.stdout, output[1]);
  });
}
