// wasi_run.mjs -- runs a WASI (preview1) program under Node.js, the way
// qemu-user runs a cross-compiled one: `node wasi_run.mjs prog.wasm args...`.
// The current directory and every absolute-path argument's directory are
// preopened, the environment is passed through, and the program's exit
// code becomes ours. Used by the wasm32 leg of `make cross-test`.
import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { WASI } from 'node:wasi';
import process from 'node:process';

const [prog, ...args] = process.argv.slice(2);
if (!prog) {
  console.error('usage: node wasi_run.mjs prog.wasm [args...]');
  process.exit(2);
}
const preopens = { '.': process.cwd() };
for (const a of args) {
  if (!a.startsWith('/') || !existsSync(a)) continue;
  const dir = statSync(a).isDirectory() ? a : dirname(a);
  preopens[resolve(dir)] = resolve(dir);
}
const wasi = new WASI({
  version: 'preview1',
  args: [prog, ...args],
  env: process.env,
  preopens,
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(prog));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
