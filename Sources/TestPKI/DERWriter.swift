/// A minimal DER/BER TLV writer for building receipts and extensions by hand,
/// including the deliberately malformed ones the vectors need.
package enum TLV {
    package static func length(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        var bytes: [UInt8] = []
        var value = n
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    package static func node(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    package static func sequence(_ parts: [UInt8]...) -> [UInt8] { node(0x30, parts.flatMap { $0 }) }
    package static func set(_ parts: [[UInt8]]) -> [UInt8] { node(0x31, parts.flatMap { $0 }) }
    package static func octets(_ bytes: [UInt8]) -> [UInt8] { node(0x04, bytes) }
    package static func explicit(_ number: UInt8, _ content: [UInt8]) -> [UInt8] { node(0xA0 | number, content) }

    /// A constructed context-specific node of any tag number (the high-tag
    /// form from 31 on, as Apple's extensions use for tags such as 1400).
    package static func explicitTag(_ number: UInt, _ content: [UInt8]) -> [UInt8] {
        guard number >= 31 else { return node(0xA0 | UInt8(number), content) }
        var digits: [UInt8] = [UInt8(number & 0x7F)]
        var rest = number >> 7
        while rest > 0 {
            digits.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return [0xBF] + digits + length(content.count) + content
    }

    package static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var v = value
        repeat {
            bytes.insert(UInt8(v & 0xFF), at: 0)
            v >>= 8
        } while v > 0
        if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        return node(0x02, bytes)
    }

    package static func oid(_ arcs: [UInt]) -> [UInt8] {
        guard arcs.count >= 2 else { return node(0x06, []) }
        var content: [UInt8] = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var v = arc >> 7
            while v > 0 {
                chunk.insert(UInt8(v & 0x7F) | 0x80, at: 0)
                v >>= 7
            }
            content += chunk
        }
        return node(0x06, content)
    }

    /// BER: an indefinite-length constructed node (closed by end-of-contents).
    package static func indefinite(_ tag: UInt8, _ parts: [[UInt8]]) -> [UInt8] { [tag, 0x80] + parts.flatMap { $0 } + [0, 0] }

    /// BER: an OCTET STRING split in chunks of `size` bytes, as Apple sends receipt payloads.
    package static func chunkedOctets(_ bytes: [UInt8], size: Int) -> [UInt8] {
        var chunks: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            chunks.append(octets(Array(bytes[index..<min(bytes.count, index + size)])))
            index += size
        }
        return indefinite(0x24, chunks)
    }
}
