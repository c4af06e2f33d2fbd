/// Canonical CBOR encoder: RFC 8949 §4.2.1 core deterministic encoding.
///
/// Heads use the shortest argument, floats the shortest width that keeps the
/// value (NaN payloads included), indefinite-length items are written with
/// definite lengths, and map entries are sorted by the bytes of their encoded
/// keys. The output of a value decoded in any mode therefore decodes in
/// `deterministic` mode, provided its map keys are distinct.
public enum CBOREncoder {
    /// The canonical encoding of `value`.
    public static func canonical(_ value: CBORValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// The canonical encoding of a decoded item (its bytes as sent when they
    /// already are canonical).
    public static func canonical(_ item: CBORItem) -> [UInt8] {
        var out: [UInt8] = []
        append(item, to: &out)
        return out
    }

    /// Appends the canonical encoding of `value` to `out`.
    public static func append(_ value: CBORValue, to out: inout [UInt8]) {
        appendNode(value, to: &out)
    }

    /// Appends the canonical encoding of a decoded item to `out`. Read
    /// straight from the input: strings are copied as the decoder validated
    /// them, and a map's keys are encoded into one scratch buffer and sorted
    /// only when they are out of order.
    public static func append(_ item: CBORItem, to out: inout [UInt8]) {
        switch item.content {
        case .bytes, .text:
            let head = item.head
            if !head.isIndefinite {
                let payload = item.payload(head)
                appendHead(major: head.major, UInt64(payload.count), to: &out)
                out.append(contentsOf: payload)
            } else {
                let chunks = item.stringChunks ?? []
                appendHead(major: head.major, UInt64(chunks.reduce(0) { $0 + $1.count }), to: &out)
                for chunk in chunks { out.append(contentsOf: chunk) }
            }
        case .array(let items):
            appendHead(major: 4, UInt64(items.count), to: &out)
            for element in items { append(element, to: &out) }
        case .map(let entries):
            appendHead(major: 5, UInt64(entries.count), to: &out)
            var keys: [UInt8] = []
            var order: [(key: Range<Int>, value: CBORItem)] = []
            order.reserveCapacity(entries.count)
            var sorted = true
            for (key, value) in entries {
                let start = keys.count
                append(key, to: &keys)
                if let last = order.last, !keys[last.key].lexicographicallyPrecedes(keys[start...]) { sorted = false }
                order.append((start..<keys.count, value))
            }
            if !sorted { order.sort { keys[$0.key].lexicographicallyPrecedes(keys[$1.key]) } }
            for entry in order {
                out.append(contentsOf: keys[entry.key])
                append(entry.value, to: &out)
            }
        case .tag(let number, let content):
            appendHead(major: 6, number, to: &out)
            append(content, to: &out)
        default:
            // Integers, simple values and floats: no children, nothing to copy.
            appendNode(item, to: &out)
        }
    }

    static func appendNode<T: CBORNodeConvertible>(_ value: T, to out: inout [UInt8]) {
        switch value.node {
        case .unsigned(let n):
            appendHead(major: 0, n, to: &out)
        case .negative(let n):
            appendHead(major: 1, n, to: &out)
        case .bytes(let chunks, _):
            appendHead(major: 2, UInt64(chunks.reduce(0) { $0 + $1.count }), to: &out)
            for chunk in chunks { out.append(contentsOf: chunk) }
        case .text(let chunks, _):
            appendText(chunks.count == 1 ? chunks[0] : chunks.joined(), to: &out)
        case .array(let items, _):
            appendHead(major: 4, UInt64(items.count), to: &out)
            for item in items { appendNode(item, to: &out) }
        case .map(let entries, _):
            appendHead(major: 5, UInt64(entries.count), to: &out)
            let encoded = entries.map { entry -> (key: [UInt8], value: T) in
                var key: [UInt8] = []
                appendNode(entry.key, to: &key)
                return (key, entry.value)
            }
            for entry in encoded.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                out.append(contentsOf: entry.key)
                appendNode(entry.value, to: &out)
            }
        case .tag(let n, let content):
            appendHead(major: 6, n, to: &out)
            appendNode(content, to: &out)
        case .simple(let n):
            if n < 24 {
                out.append(0xE0 | n)
            } else {
                out.append(0xF8)
                out.append(n)
            }
        case .float(let d):
            appendFloat(d, to: &out)
        }
    }

    static func appendText(_ s: String, to out: inout [UInt8]) {
        let utf8 = Array(s.utf8)
        appendHead(major: 3, UInt64(utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }

    /// Appends a head with the shortest argument encoding (RFC 8949 §4.2.1).
    public static func appendHead(major: UInt8, _ argument: UInt64, to out: inout [UInt8]) {
        let top = major << 5
        switch argument {
        case 0..<24:
            out.append(top | UInt8(argument))
        case 24...0xFF:
            out.append(top | 24)
            out.append(UInt8(argument))
        case 0x100...0xFFFF:
            out.append(top | 25)
            appendBigEndian(argument, width: 2, to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(top | 26)
            appendBigEndian(argument, width: 4, to: &out)
        default:
            out.append(top | 27)
            appendBigEndian(argument, width: 8, to: &out)
        }
    }

    static func appendFloat(_ d: Double, to out: inout [UInt8]) {
        if let half = CBORFloat.exactHalf(d) {
            out.append(0xF9)
            appendBigEndian(UInt64(half), width: 2, to: &out)
        } else if let single = CBORFloat.exactSingle(d) {
            out.append(0xFA)
            appendBigEndian(UInt64(single), width: 4, to: &out)
        } else {
            out.append(0xFB)
            appendBigEndian(d.bitPattern, width: 8, to: &out)
        }
    }

    static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}
