#!/usr/bin/env node
// TrustSuite adapter for node-cbor (family cbor, wellFormed mode), Debian's
// node-cbor package. Debian installs Node modules under /usr/share/nodejs:
// run it as `NODE_PATH=/usr/share/nodejs node adapter.js` (the library's
// own dependencies are found there too).
'use strict'
const path = require('path')
const readline = require('readline')

const cborPath = require.resolve('cbor')
const cbor = require(cborPath)
const { version } = require(path.join(path.dirname(cborPath), '..', 'package.json'))

// spec/cbor.md nesting limit of wellFormed mode.
const MAX_DEPTH = 64

// decodeFirstSync throws on an item it cannot decode and on bytes left over
// after the first item; duplicate keys and depth are options.
function decode (hex) {
  cbor.decodeFirstSync(Buffer.from(hex, 'hex'), {
    max_depth: MAX_DEPTH, required: true, preventDuplicateKeys: true
  })
}

function answer (request) {
  const input = request.input || {}
  if (request.family !== 'cbor') return { result: 'unsupported', error: `family ${request.family} is not mapped by this adapter` }
  const mode = input.mode || 'wellFormed'
  if (mode !== 'wellFormed') return { result: 'unsupported', error: `node-cbor has no ${mode} decoding mode` }
  if (input.tagValidity) return { result: 'unsupported', error: 'node-cbor has no option that checks tag content (tagValidity)' }
  try {
    decode(input.cborHex)
    return { result: 'valid' }
  } catch (error) {
    return { result: 'invalid', error: `${error.name}: ${error.message}`.slice(0, 500) }
  }
}

console.log(JSON.stringify({ adapter: 'node-cbor', version, families: ['cbor'] }))
readline.createInterface({ input: process.stdin, terminal: false }).on('line', (line) => {
  if (!line.trim()) return
  const request = JSON.parse(line)
  console.log(JSON.stringify({ id: request.id, ...answer(request) }))
})
