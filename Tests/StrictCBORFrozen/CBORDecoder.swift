/// Strict, bounded, non-recursive CBOR decoder (spec/cbor.md).
///
/// Decoding is two layers, as swift-asn1 parses DER: one structural pass over
/// the input (`StructuralPass`) enforces every rule of the mode and records a
/// flat tape (see `TapeEntry`), and the result is a ``CBORItem``, a view that
/// reads values from the input on demand. The pass keeps an explicit stack of
/// open containers, so hostile nesting costs heap, not call stack, and is cut
/// off at ``CBORLimits/maxDepth``. Every declared length or count is compared
/// with the bytes that remain before anything is allocated from it, and
/// nothing is allocated per leaf item.
public struct CBORDecoder: Sendable {
    public var mode: CBORMode
    public var limits: CBORLimits
    /// Check the content of the tags RFC 8949 §3.4 defines (§5.3.2 validity;
    /// spec/cbor.md, round 3): a tag around content of the wrong type or form
    /// is `invalidTagContent`. Off by default: a generic decoder may pass
    /// tags through, and one that checks them is conforming too.
    public var tagValidity: Bool

    public init(mode: CBORMode = .wellFormed, limits: CBORLimits? = nil, tagValidity: Bool = false) {
        self.mode = mode
        self.limits = limits ?? CBORLimits.defaults(for: mode)
        self.tagValidity = tagValidity
    }

    /// Decodes the first data item of `bytes` and reports how many bytes it
    /// took; bytes after it are left to the caller (authenticator data carries
    /// a COSE key followed by extensions).
    public func decodeFirst(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORItem, consumed: Int) {
        try decodeFirst(bytes[...])
    }

    /// ``decodeFirst(_:)-([UInt8])`` over a slice; offsets are relative to the slice start.
    public func decodeFirst(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> (value: CBORItem, consumed: Int) {
        let limit = min(limits.maxInputLength, CBORLimits.hardMaxInputLength)
        guard bytes.count <= limit else {
            throw CBORError(
                .lengthLimitExceeded, at: limit,
                "input of \(bytes.count) bytes exceeds the limit of \(limit)")
        }
        let result: Result<(tape: [TapeEntry], consumed: Int), CBORError> = bytes.withUnsafeBufferPointer { buffer in
            var pass = StructuralPass(buffer: buffer, input: bytes, mode: mode, limits: limits, tagValidity: tagValidity)
            do throws(CBORError) {
                try pass.run()
                return .success((pass.tape, pass.position))
            } catch {
                return .failure(error)
            }
        }
        let (tape, consumed) = try result.get()
        let storage = CBORStorage(bytes: bytes[..<(bytes.startIndex + consumed)], tape: tape)
        return (CBORItem(storage: storage, offset: 0, entry: 0), consumed)
    }

    /// Decodes exactly one data item; anything after it is `trailingBytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORItem {
        try decode(bytes[...])
    }

    /// ``decode(_:)-([UInt8])`` over a slice.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> CBORItem {
        let (value, consumed) = try decodeFirst(bytes)
        guard consumed == bytes.count else {
            throw CBORError(
                .trailingBytes, at: consumed,
                "\(bytes.count - consumed) byte(s) after the first data item")
        }
        return value
    }
}
