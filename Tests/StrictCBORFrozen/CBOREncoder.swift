/// Canonical CBOR encoder: RFC 8949 §4.2.1 core deterministic encoding.
///
/// Heads use the shortest argument, floats the shortest width that keeps the
/// value (NaN payloads included), indefinite-length items are written with
/// definite lengths, and map entries are sorted by the bytes of their encoded
/// keys. The output of a value decoded in any mode therefore decodes in
/// `deterministic` mode, provided its map keys are distinct.
///
/// The encoder walks a value with an explicit stack (`CanonicalWriter`), so
/// any depth the decoder accepts (up to ``CBORLimits/hardMaxDepth``) costs
/// heap, not call stack; maps used as keys of maps are no exception.
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
        CanonicalWriter.write(value, to: &out)
    }

    /// Appends the canonical encoding of a decoded item to `out`. Read
    /// straight from the input: strings are copied as the decoder validated
    /// them, and a map's keys are encoded into one scratch buffer and sorted
    /// only when they are out of order.
    public static func append(_ item: CBORItem, to out: inout [UInt8]) {
        CanonicalWriter.write(item, to: &out)
    }

    /// Appends a leaf of the node model (anything but an array, map or tag);
    /// false for those three, which the writer walks itself.
    static func appendLeaf<T>(_ node: CBORNode<T>, to out: inout [UInt8]) -> Bool {
        switch node {
        case .unsigned(let n):
            appendHead(major: 0, n, to: &out)
        case .negative(let n):
            appendHead(major: 1, n, to: &out)
        case .bytes(let chunks, _):
            appendHead(major: 2, UInt64(chunks.reduce(0) { $0 + $1.count }), to: &out)
            for chunk in chunks { out.append(contentsOf: chunk) }
        case .text(let chunks, _):
            appendText(chunks.count == 1 ? chunks[0] : chunks.joined(), to: &out)
        case .simple(let n):
            if n < 24 {
                out.append(0xE0 | n)
            } else {
                out.append(0xF8)
                out.append(n)
            }
        case .float(let d):
            appendFloat(d, to: &out)
        case .array, .map, .tag:
            return false
        }
        return true
    }

    /// Appends a decoded leaf without building its node: integers and
    /// strings come from the head and the input; false for containers and tags.
    static func appendLeaf(_ item: CBORItem, to out: inout [UInt8]) -> Bool {
        let head = item.head
        switch head.major {
        case 0, 1:
            appendHead(major: head.major, head.argument, to: &out)
        case 2, 3:
            if !head.isIndefinite {
                let payload = item.payload(head)
                appendHead(major: head.major, UInt64(payload.count), to: &out)
                out.append(contentsOf: payload)
            } else {
                let chunks = item.stringChunks ?? []
                appendHead(major: head.major, UInt64(chunks.reduce(0) { $0 + $1.count }), to: &out)
                for chunk in chunks { out.append(contentsOf: chunk) }
            }
        case 4, 5, 6:
            return false
        default:
            return appendLeaf(item.node, to: &out)
        }
        return true
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
