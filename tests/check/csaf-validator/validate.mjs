// Validate CSAF 2.0 documents with the BSI's @secvisogram/csaf-validator-lib: the strict schema,
// every mandatory test (basic.js) and every optional test (6.2.x). Usage:
//   node validate.mjs LIBDIR FILE...
// LIBDIR is the installed package's directory. Prints one JSON object: per file, per test
// group, the errors and warnings each test reported (empty lists when it passed).
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [libdir, ...files] = process.argv.slice(2)
const load = (f) => import(pathToFileURL(path.join(libdir, f)).href)
const basic = await load('basic.js')
const optional = await load('optionalTests.js')
const validateStrict = (await load('validateStrict.js')).default

const groups = {
  basic: Object.values(basic),
  optional: Object.values(optional),
}
const out = {}
for (const file of files) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'))
  out[file] = {}
  for (const [group, tests] of Object.entries(groups)) {
    const res = await validateStrict(tests, doc)
    const per = {}
    for (const t of res.tests) {
      per[t.name] = {
        errors: t.errors.map((e) => `${e.instancePath}: ${e.message}`),
        warnings: t.warnings.map((e) => `${e.instancePath}: ${e.message}`),
      }
    }
    out[file][group] = per
  }
}
process.stdout.write(JSON.stringify(out))
