/// A deliberately simple CBOR decoder: one unsigned integer (major type 0)
/// and nothing else. It has one bug on purpose: it accepts non-shortest
/// heads (`0x18 0x00` for 0) even where deterministic encoding forbids them.
public enum UIntDecoder {
    public enum Answer: Equatable {
        case value(UInt64)
        case malformed(String)
        case notAnUnsignedInteger
    }

    public static func decode(_ bytes: [UInt8]) -> Answer {
        guard let head = bytes.first else { return .malformed("no bytes") }
        guard head >> 5 == 0 else { return .notAnUnsignedInteger }
        let info = Int(head & 0x1f)
        let length: Int
        switch info {
        case 0..<24: return bytes.count == 1 ? .value(UInt64(info)) : .malformed("bytes after the item")
        case 24: length = 1
        case 25: length = 2
        case 26: length = 4
        case 27: length = 8
        default: return .malformed("additional information \(info)")
        }
        guard bytes.count == 1 + length else { return .malformed(bytes.count < 1 + length ? "truncated" : "bytes after the item") }
        return .value(bytes.dropFirst().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}
