/// A deliberately simple CBOR decoder: one unsigned integer (major type 0)
/// and nothing else. It has two bugs on purpose: it accepts non-shortest
/// heads (`0x18 0x00` for 0) even where deterministic encoding forbids them,
/// and it takes the reserved head `0x1d` for an 8-byte one and reads its
/// argument without checking the length, so the one-byte input `1d` traps
/// (an index out of range): the crash its tests show graded in isolation.
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
        case 29: return .value(bytes[1...8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        default: return .malformed("additional information \(info)")
        }
        guard bytes.count == 1 + length else { return .malformed(bytes.count < 1 + length ? "truncated" : "bytes after the item") }
        return .value(bytes.dropFirst().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}
