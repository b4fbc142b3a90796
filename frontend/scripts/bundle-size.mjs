// Prints the gzipped JavaScript each screen needs before it can show anything: the entry
// chunk and, for each page, its own chunk with everything they import statically (lazy
// parts such as noVNC are not counted: they load when first used). Fails when a screen
// needs more than the budget. Run after `vite build`.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const BUDGET_KB = 300
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'))

function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const imported of manifest[key].imports ?? []) closure(imported, seen)
  return seen
}

const gzipped = (keys) =>
  [...keys].reduce((sum, key) => sum + gzipSync(readFileSync(path.join(dist, manifest[key].file))).length, 0)

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry)
const pages = Object.keys(manifest).filter((key) => key.startsWith('src/views/'))
const lazy = Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry && !pages.includes(key))
let over = false
console.log(`initial JavaScript per screen (gzip), budget ${BUDGET_KB} kB`)
for (const page of pages) {
  const keys = closure(page, closure(entry))
  const kb = gzipped(keys) / 1024
  over ||= kb > BUDGET_KB
  console.log(`  ${path.basename(page, '.vue').padEnd(16)} ${kb.toFixed(1).padStart(7)} kB`)
}
console.log('loaded when first used (gzip)')
for (const key of lazy) console.log(`  ${key.padEnd(40)} ${(gzipped([key]) / 1024).toFixed(1).padStart(7)} kB`)
if (over) {
  console.error(`a screen needs more than ${BUDGET_KB} kB of JavaScript`)
  process.exit(1)
}
