/// Strict, bounded, non-recursive CBOR decoder (docs/models/cbor.md).
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
    /// docs/models/cbor.md, round 3): a tag around content of the wrong type or form
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
        try decode(bytes[...], whole: false)
    }

    /// ``decodeFirst(_:)-([UInt8])`` over a slice; offsets are relative to the slice start.
    public func decodeFirst(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> (value: CBORItem, consumed: Int) {
        try decode(bytes, whole: false)
    }

    /// Decodes exactly one data item; anything after it is `trailingBytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORItem {
        try decode(bytes[...], whole: true).value
    }

    /// ``decode(_:)-([UInt8])`` over a slice.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(CBORError) -> CBORItem {
        try decode(bytes, whole: true).value
    }

    /// ``decode(_:)-([UInt8])`` by the structural pass alone, never the
    /// quick check: for the fuzz oracle, which compares the two.
    @_spi(Oracle) public func decodeByStructuralPass(_ bytes: [UInt8]) throws(CBORError) -> CBORItem {
        try decode(bytes[...], whole: true, quick: false).value
    }

    /// ``decode(_:)-([UInt8])`` by the quick check alone: nil when this
    /// decoder's configuration is not the quick check's (wellFormed, no
    /// `tagValidity`) or the check leaves the input undecided, which the
    /// structural pass then decides. For the fuzz oracle, which compares
    /// what the check decides with the pass.
    @_spi(Oracle) public func decodeByQuickCheck(_ bytes: [UInt8]) -> Result<CBORItem, CBORError>? {
        guard bytes.count <= inputLimit else { return nil }
        let decided = bytes.withUnsafeBufferPointer { buffer in quickDecode(buffer, input: bytes[...], whole: true) }
        return decided?.map { CBORItem(storage: $0.storage, offset: 0, entry: 0) }
    }

    /// The longest input this decoder takes: its limit, and never more than
    /// the tape's 32-bit offsets reach. `decode`, `validate` and the oracle's
    /// entry points all refuse past it.
    @inline(__always) var inputLimit: Int { min(limits.maxInputLength, CBORLimits.hardMaxInputLength) }

    /// The quick check's decode where this configuration has one (wellFormed
    /// without `tagValidity`): nil elsewhere, or when the check leaves the
    /// input undecided.
    @inline(__always)
    func quickDecode(
        _ buffer: UnsafeBufferPointer<UInt8>, input bytes: ArraySlice<UInt8>,
        whole: Bool
    ) -> Result<(storage: CBORStorage, consumed: Int), CBORError>? {
        guard case .wellFormed = mode, !tagValidity else { return nil }
        return QuickValidation.decode(buffer, input: bytes, whole: whole, limits: limits)
    }

    /// The decode behind the four above, in one layer: the pass, then (when
    /// the item must be `whole` input) the trailing-bytes check, before the
    /// result is made, so that refusal allocates nothing either.
    /// In wellFormed mode without `tagValidity`, the quick check of
    /// ``validate(_:)-([UInt8])`` runs first and records the tape as it
    /// goes; what it leaves undecided goes to the structural pass (as does
    /// everything when `quick` is false: the tests compare the two tapes).
    @inline(__always)
    func decode(_ bytes: ArraySlice<UInt8>, whole: Bool, quick: Bool = true) throws(CBORError) -> (value: CBORItem, consumed: Int) {
        let limit = inputLimit
        guard bytes.count <= limit else {
            throw CBORError(
                .lengthLimitExceeded, at: limit,
                "input of \(bytes.count) bytes exceeds the limit of \(limit)")
        }
        let result: Result<(storage: CBORStorage, consumed: Int), CBORError> = bytes.withUnsafeBufferPointer { buffer in
            if quick, let decided = quickDecode(buffer, input: bytes, whole: whole) { return decided }
            return StructuralPass.withPass(
                buffer: buffer, input: bytes, mode: mode, limits: limits,
                tagValidity: tagValidity
            ) { pass in
                do throws(CBORError) {
                    try pass.run()
                } catch {
                    return .failure(error)
                }
                let consumed = pass.position
                guard !whole || consumed == bytes.count else {
                    return .failure(CBORError(.trailingBytes, at: consumed, detail: .trailing(bytes.count - consumed)))
                }
                let storage = pass.storage(bytes: bytes[..<(bytes.startIndex + consumed)], entries: 0..<pass.tape.count)
                return .success((storage, consumed))
            }
        }
        let (storage, consumed) = try result.get()
        return (CBORItem(storage: storage, offset: 0, entry: 0), consumed)
    }
}
