#!/usr/bin/ruby
# TrustSuite adapter for cbor-ruby (family cbor, wellFormed mode), Debian's
# ruby-cbor package. JSON lines through Ruby's bundled json.
require 'cbor'
require 'json'

$stdout.sync = true

def answer(request)
  input = request['input'] || {}
  return { result: 'unsupported', error: "family #{request['family']} is not mapped by this adapter" } unless request['family'] == 'cbor'
  mode = input['mode'] || 'wellFormed'
  return { result: 'unsupported', error: "cbor-ruby has no #{mode} decoding mode" } unless mode == 'wellFormed'
  return { result: 'unsupported', error: 'cbor-ruby has no option that checks tag content (tagValidity)' } if input['tagValidity']
  # CBOR.decode reads one item and raises on malformed data and on bytes
  # left after it; the library has no option for depth, duplicates or UTF-8.
  CBOR.decode([input['cborHex']].pack('H*'))
  { result: 'valid' }
rescue StandardError => e
  { result: 'invalid', error: "#{e.class}: #{e.message}"[0, 500] }
end

puts JSON.generate(adapter: 'cbor-ruby', version: CBOR::VERSION, families: ['cbor'])
$stdin.each_line do |line|
  next if line.strip.empty?
  request = JSON.parse(line)
  puts JSON.generate({ id: request['id'] }.merge(answer(request)))
end
