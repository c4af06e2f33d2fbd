/// The single error type of ``StrictCBOR``.
///
/// `code` is one of the stable cbor codes of docs/vectors.md (the same strings
/// the vector files use); `offset` is the byte offset in the input at which
/// the decoder found the problem; `reason` is for humans. Equality considers
/// only `code` and `offset`.
///
/// The reason is built when it is read, not when the error is thrown: a
/// refusal costs the decoder a few dozen instructions instead of the
/// thousands that formatting its numbers takes, and most refusals are only
/// tested for their code (hostile input is refused in bulk). The text is the
/// same either way: it is made from values captured at the throw.
public struct CBORError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable error codes (docs/vectors.md, "cbor"). Add codes; never rename one.
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
        // `floatNotAllowed` (docs/vectors.md's list) is no case: no mode of
        // docs/models/cbor.md refuses a float as such (ctap2 and deterministic
        // refuse a non-shortest one, `nonMinimalEncoding`), so nothing threw it.
        case invalidMapKeyType
        case integerOverflow
        /// A tag of RFC 8949 §3.4 around content of the wrong type or form
        /// (only with ``CBORDecoder/tagValidity``).
        case invalidTagContent
    }

    public let code: Code
    public let offset: Int
    /// What ``reason`` is built from on demand (see above).
    private let detail: Detail

    public var reason: String { detail.text }

    public init(_ code: Code, at offset: Int, _ reason: @autoclosure @escaping @Sendable () -> String) {
        self.code = code
        self.offset = offset
        self.detail = .text(reason)
    }

    /// An error whose reason is one of the ``Detail`` forms.
    init(_ code: Code, at offset: Int, detail: Detail) {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// The values a reason is made from. A reason with values in it is a
    /// closure that captures them, and capturing allocates; the refusals
    /// hostile input reaches first (declared counts and lengths beyond the
    /// limits or the input, nesting beyond the depth) keep their values
    /// here instead, so refusing them allocates nothing. The text is the same.
    enum Detail: Sendable {
        case text(@Sendable () -> String)
        /// An array's items or a map's pairs above the container limit.
        case countOverLimit(map: Bool, count: UInt64, limit: Int)
        /// An array's items or a map's pairs beyond the bytes left.
        case countOverInput(map: Bool, count: UInt64, left: Int)
        /// A string's length beyond the bytes left.
        case lengthOverInput(length: UInt64, left: Int)
        /// A head's argument bytes beyond the bytes left.
        case headOverInput(width: Int, left: Int)
        /// Nesting beyond the depth limit.
        case depth(maxDepth: Int, mode: CBORMode)
        /// Bytes after the one data item `decode` takes.
        case trailing(Int)

        var text: String {
            switch self {
            case .text(let make): make()
            case let .countOverLimit(map, count, limit): "\(Self.declares(map: map, count)), limit is \(limit)"
            case let .countOverInput(map, count, left): "\(Self.declares(map: map, count)), only \(left) byte(s) left"
            case let .lengthOverInput(length, left): "string declares \(length) bytes, \(left) left"
            case let .headOverInput(width, left): "head needs \(width) argument byte(s), \(left) left"
            case let .depth(maxDepth, mode): "nesting deeper than \(maxDepth) in \(mode.rawValue) mode"
            case .trailing(let count): "\(count) byte(s) after the first data item"
            }
        }

        /// The start of a reason for a declared count.
        static func declares(map: Bool, _ count: UInt64) -> String {
            map ? "map declares \(count) pairs" : "array declares \(count) items"
        }
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
