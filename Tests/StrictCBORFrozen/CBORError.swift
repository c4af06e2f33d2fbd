/// The single error type of ``StrictCBOR``.
///
/// `code` is one of the stable cbor codes of spec/vectors.md (the same strings
/// the vector files use); `offset` is the byte offset in the input at which
/// the decoder found the problem; `reason` is for humans. Equality considers
/// only `code` and `offset`.
public struct CBORError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable error codes (spec/vectors.md, "cbor"). Add codes; never rename one.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        case truncated
        case trailingBytes
        case reservedAdditionalInfo
        case indefiniteLengthNotAllowed
        case invalidIndefiniteChunk
        case unexpectedBreak
        case nonMinimalEncoding
        case invalidUTF8
        case duplicateMapKey
        case unsortedMapKeys
        case depthLimitExceeded
        case lengthLimitExceeded
        case invalidSimpleValue
        case tagNotAllowed
        // `floatNotAllowed` (spec/vectors.md's list) is no case: no mode of
        // spec/cbor.md refuses a float as such (ctap2 and deterministic
        // refuse a non-shortest one, `nonMinimalEncoding`), so nothing threw it.
        case invalidMapKeyType
        case integerOverflow
        /// A tag of RFC 8949 §3.4 around content of the wrong type or form
        /// (only with ``CBORDecoder/tagValidity``).
        case invalidTagContent
    }

    public let code: Code
    public let offset: Int
    public let reason: String

    public init(_ code: Code, at offset: Int, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        "\(code.rawValue) at offset \(offset): \(reason)"
    }

    public static func == (lhs: CBORError, rhs: CBORError) -> Bool {
        lhs.code == rhs.code && lhs.offset == rhs.offset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(offset)
    }
}
