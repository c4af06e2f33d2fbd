#!/usr/bin/env node
// The smallest TrustSuite adapter, in Node: node-cbor on the cbor family.
// One JSON line introduces the adapter; then each request line gets one
// reply line with the same id. Grade it with the downloaded binary
// (docs/adopting.md), node-cbor from npm or Debian's node-cbor:
//
//   trustsuite run --adapter 'NODE_PATH=/usr/share/nodejs node adapter.js' --expected expected.json
'use strict'
const readline = require('readline')
const cbor = require('cbor')
const { version } = require('cbor/package.json')

function answer (input) {
  if ((input.mode || 'wellFormed') !== 'wellFormed' || input.tagValidity) return { result: 'unsupported' }
  try {
    cbor.decodeFirstSync(Buffer.from(input.cborHex, 'hex'), { required: true })
    return { result: 'valid' }
  } catch (error) {
    return { result: 'invalid', error: `${error.name}: ${error.message}`.slice(0, 300) }
  }
}

console.log(JSON.stringify({ adapter: 'node-cbor-quickstart', version, families: ['cbor'] }))
readline.createInterface({ input: process.stdin, terminal: false }).on('line', (line) => {
  const request = JSON.parse(line)
  console.log(JSON.stringify({ id: request.id, ...answer(request.input) }))
})
