import StrictCBOR

/// Equality of two decoded items in the CBOR data model (RFC 8949 §2), the
/// way the working group's vectors state their `decoded` values: integers by
/// value, a bignum (tag 2 or 3 on a byte string) equal to the integer of
/// the same value (§3.4.3), floats bit for bit after widening (NaN payloads
/// and signs included), strings by their bytes whether sent in chunks or
/// not, arrays and maps item by item in order, other tags by number and
/// content, simple values by number. Iterative: any depth.
enum CBORDataModel {
    /// Sign and magnitude (big-endian, no leading zeros) of an integer:
    /// the value is `magnitude`, or `-1 - magnitude` when negative.
    struct Integer: Equatable {
        let negative: Bool
        let magnitude: ArraySlice<UInt8>
    }

    /// The first difference between `actual` and `expected`, or nil when
    /// they are the same data item.
    static func difference(_ actual: CBORItem, _ expected: CBORItem) -> String? {
        var pending: [(CBORItem, CBORItem, String)] = [(actual, expected, "$")]
        while let (a, e, path) = pending.popLast() {
            func mismatch() -> String { "\(path): \(a.diagnostic.prefix(80)) is not \(e.diagnostic.prefix(80))" }
            if let x = integer(a), let y = integer(e) {
                guard x == y else { return mismatch() }
                continue
            }
            switch (a.content, e.content) {
            case (.float(let x), .float(let y)):
                guard x.bitPattern == y.bitPattern else { return mismatch() }
            case (.bytes, .bytes), (.text, .text):
                guard a.stringChunks.map({ Array($0.joined()) }) == e.stringChunks.map({ Array($0.joined()) }) else { return mismatch() }
            case (.array(let xs), .array(let ys)):
                guard xs.count == ys.count else { return mismatch() }
                for (i, (x, y)) in zip(xs, ys).enumerated() { pending.append((x, y, "\(path)[\(i)]")) }
            case (.map(let xs), .map(let ys)):
                guard xs.count == ys.count else { return mismatch() }
                for (i, (x, y)) in zip(xs, ys).enumerated() {
                    pending.append((x.key, y.key, "\(path).key\(i)"))
                    pending.append((x.value, y.value, "\(path).value\(i)"))
                }
            case (.tag(let n, let x), .tag(let m, let y)):
                guard n == m else { return mismatch() }
                pending.append((x, y, "\(path).\(n)"))
            case (.bool(let x), .bool(let y)):
                guard x == y else { return mismatch() }
            case (.null, .null), (.undefined, .undefined):
                break
            case (.simple(let x), .simple(let y)):
                guard x == y else { return mismatch() }
            default:
                return mismatch()
            }
        }
        return nil
    }

    /// The item as an integer: major type 0 or 1, or a bignum.
    static func integer(_ item: CBORItem) -> Integer? {
        func trimmed<C: Collection<UInt8>>(_ bytes: C) -> ArraySlice<UInt8> {
            let all = Array(bytes)[...]
            return all.drop { $0 == 0 }
        }
        func bigEndian(_ n: UInt64) -> ArraySlice<UInt8> {
            trimmed((0..<8).reversed().map { UInt8(truncatingIfNeeded: n >> UInt64($0 * 8)) })
        }
        switch item.content {
        case .unsigned(let n): return Integer(negative: false, magnitude: bigEndian(n))
        case .negative(let n): return Integer(negative: true, magnitude: bigEndian(n))
        case .tag(let number, let content) where number == 2 || number == 3:
            guard let bytes = content.bytesValue else { return nil }
            return Integer(negative: number == 3, magnitude: trimmed(bytes))
        default:
            return nil
        }
    }
}
