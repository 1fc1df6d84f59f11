// Validate kcve's SPDX 3 documents (tests/check/spdx3.py) with ajv's JSON Schema 2020-12
// validator and the official SPDX 3.0.1 schema. Usage: node spdx3-validate.js SCHEMA FILE...
// Output on stdout: {FILE: null | [errors]}. Modules come from NODE_PATH (ajv 8 and
// ajv-formats of tests/check/cyclonedx-library/package-lock.json, installed by the test).
'use strict'
const fs = require('fs')
const Ajv2020 = require('ajv/dist/2020').default
const addFormats = require('ajv-formats').default

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
const validate = ajv.compile(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')))
const out = {}
for (const file of process.argv.slice(3)) {
  const ok = validate(JSON.parse(fs.readFileSync(file, 'utf8')))
  out[file] = ok ? null : validate.errors.slice(0, 20)
}
process.stdout.write(JSON.stringify(out) + '\n')
