// Bundles the web app for the server: js/app.js and what it imports into OUT/js/ (esbuild, ES
// modules with code splitting). cubing.js (the 3D puzzles) is imported dynamically, so it lands
// in chunks of its own that the page loads only when a 3D puzzle opens: first load stays small.
//   node build.mjs OUT        (the CMake build does this: OUT = build/<preset>/web-bundle)
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error('usage: node build.mjs OUTPUT_DIR');
  process.exit(2);
}
// Chunk names carry a content hash: stale chunks of an earlier build must not be embedded too.
rmSync(path.join(out, 'js'), { recursive: true, force: true });
await build({
  entryPoints: [path.join(here, 'js/app.js')],
  outdir: path.join(out, 'js'),
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  chunkNames: 'chunks/[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
});
