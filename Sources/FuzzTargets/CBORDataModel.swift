import StrictCBOR

/// An item in RFC 8949's generic data model (§2), which two decoders must
/// agree on whatever the encoding: an integer is its value, a string its
/// bytes (chunks joined), a float its value widened to binary64 bit for bit
/// (NaN payloads and signs kept), and false, true, null and undefined the
/// simple values 20–23 (§3.3).
indirect enum CBORDataModel: Hashable, Sendable {
    case unsigned(UInt64)
    /// The value is `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    /// The UTF-8 bytes, as sent (validity is the decoders' business).
    case text([UInt8])
    case array([CBORDataModel])
    /// Keys and values alternating, in the order sent.
    case map([CBORDataModel])
    case tag(UInt64, CBORDataModel)
    case simple(UInt8)
    /// The binary64 bit pattern of the value.
    case float(UInt64)

    /// Nesting of arrays, maps and tags, counted as ``CBORLimits/maxDepth`` counts it.
    var depth: Int {
        switch self {
        case .array(let items), .map(let items): 1 + (items.map(\.depth).max() ?? 0)
        case .tag(_, let item): 1 + item.depth
        default: 0
        }
    }

    /// Whether some map in the item holds two keys equal in the data model
    /// (RFC 8949 §5.6: such a map is not valid).
    var hasDuplicateKeys: Bool {
        switch self {
        case .array(let items): return items.contains(where: \.hasDuplicateKeys)
        case .map(let items):
            let keys = stride(from: 0, to: items.count, by: 2).map { items[$0] }
            return Set(keys).count != keys.count || items.contains(where: \.hasDuplicateKeys)
        case .tag(_, let item): return item.hasDuplicateKeys
        default: return false
        }
    }

    /// A single-precision value widened to binary64 without a conversion
    /// instruction, which would quiet a signalling NaN.
    static func widened(single bits: UInt32) -> UInt64 {
        let sign = UInt64(bits >> 31) << 63
        let exponent = (bits >> 23) & 0xFF
        let mantissa = UInt64(bits & 0x7F_FFFF)
        guard exponent == 0xFF else { return Double(Float(bitPattern: bits)).bitPattern }
        return sign | 0x7FF0_0000_0000_0000 | mantissa << 29
    }
}

extension CBORDataModel {
    /// What StrictCBOR decoded (an accepted item is within its depth limit,
    /// so the recursion is bounded).
    init(_ item: CBORItem) {
        switch item.content {
        case .unsigned(let value): self = .unsigned(value)
        case .negative(let value): self = .negative(value)
        case .bytes: self = .bytes(item.bytesValue ?? [])
        case .text: self = .text(Array((item.stringChunks ?? []).joined()))
        case .array(let items): self = .array(items.map(CBORDataModel.init))
        case .map(let pairs): self = .map(pairs.flatMap { [CBORDataModel($0.key), CBORDataModel($0.value)] })
        case .tag(let number, let content): self = .tag(number, CBORDataModel(content))
        case .bool(let value): self = .simple(value ? 21 : 20)
        case .null: self = .simple(22)
        case .undefined: self = .simple(23)
        case .simple(let value): self = .simple(value)
        case .float(let value): self = .float(value.bitPattern)
        }
    }
}
