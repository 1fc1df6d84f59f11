// Validate kcve's VEX documents with the CycloneDX library's own validator (tests/check/vex.py
// --cyclonedx-library). Input: a manifest {"cyclonedx": [FILE...], "openvex": [FILE...],
// "openvex_schema": FILE}. Output on stdout: {FILE: {"1.5": null | [errors], "1.6": ...}} for
// the CycloneDX files (Validation.JsonStrictValidator of each spec version), and
// {FILE: {"openvex": null | [errors]}} for the OpenVEX ones (ajv's JSON Schema 2020-12
// validator with the official OpenVEX 0.2.0 schema: a second implementation next to the
// Python jsonschema one). Modules come from NODE_PATH (the npm install of package-lock.json).
'use strict'
const fs = require('fs')
const CDX = require('@cyclonedx/cyclonedx-library')
const Ajv2020 = require('ajv/dist/2020').default
const addFormats = require('ajv-formats').default

async function main () {
  const manifest = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
  const out = {}
  const versions = [CDX.Spec.Version.v1dot5, CDX.Spec.Version.v1dot6]
  const validators = versions.map(v => [v, new CDX.Validation.JsonStrictValidator(v)])
  for (const file of manifest.cyclonedx) {
    const text = fs.readFileSync(file, 'utf8')
    out[file] = {}
    for (const [v, validator] of validators) {
      out[file][v] = await validator.validate(text)
    }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  const ovx = ajv.compile(JSON.parse(fs.readFileSync(manifest.openvex_schema, 'utf8')))
  for (const file of manifest.openvex) {
    const ok = ovx(JSON.parse(fs.readFileSync(file, 'utf8')))
    out[file] = { openvex: ok ? null : ovx.errors }
  }
  process.stdout.write(JSON.stringify(out, null, 1) + '\n')
}

main().catch(err => {
  console.error(`validate.js: ${err && err.stack ? err.stack : err}`)
  process.exit(1)
})
