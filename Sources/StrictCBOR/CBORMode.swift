/// The three strictness levels of docs/models/cbor.md.
public enum CBORMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// RFC 8949 §3 well-formedness plus basic validity (§5.3.1: UTF-8 text,
    /// no duplicate map keys; §3.3 simple values).
    case wellFormed
    /// RFC 8949 §4.2.1 core deterministic encoding: shortest heads and
    /// floats, definite lengths only, map keys in bytewise order, no duplicates.
    case deterministic
    /// CTAP2 canonical form as used by WebAuthn and App Attest:
    /// `deterministic`, no tags, map keys of major types 0–3, at most
    /// ``CBORLimits/ctap2MaxDepth`` nested maps and arrays.
    case ctap2

    /// Whether the §4.2.1 rules (shortest form, sorted keys, definite lengths) apply.
    public var isDeterministic: Bool {
        // A switch, not `!=`: for an enum with raw values `!=` can resolve to
        // RawRepresentable's, which compares the strings (about 20 instructions).
        switch self {
        case .wellFormed: false
        case .deterministic, .ctap2: true
        }
    }

    /// `self == .ctap2`, without comparing raw values (see ``isDeterministic``).
    var isCTAP2: Bool {
        if case .ctap2 = self { return true }
        return false
    }
}

/// Resource limits of the decoder. Every default is a named constant with the
/// threat it stops.
public struct CBORLimits: Sendable, Hashable {
    /// Nesting bound for arrays, maps and tags: stops a small input from
    /// costing a consumer of the value one frame or one allocation per level.
    public static let defaultMaxDepth = 64
    /// CTAP2 allows at most four levels of nested maps and arrays.
    public static let ctap2MaxDepth = 4
    /// Upper bound any caller may configure (docs/models/cbor.md, round 3: 1 … 10,000).
    /// The pass, the view, the encoder and the diagnostic writer walk any
    /// depth without recursion; the bound stops the open-item stack (and a
    /// caller's own tree) from growing with hostile input.
    public static let hardMaxDepth = 10_000
    /// Deepest item that converts to a ``CBORValue`` tree: Swift frees an
    /// enum tree recursively, and a 512 KiB thread stack overflows between
    /// 2k and 5k levels.
    public static let maxValueDepth = 1024
    /// Items in one array or pairs in one map: stops pre-allocation from a
    /// declared count (a count is also bounded by the bytes that remain).
    public static let maxContainerCount = 131_072
    /// Total input accepted by default: 16 MiB, far above any App Attest object;
    /// stops memory exhaustion from oversized requests. Callers may lower it.
    public static let defaultMaxInputLength = 16 * 1024 * 1024
    /// Largest input any caller may configure: the tape stores offsets in 32 bits.
    public static let hardMaxInputLength = Int(UInt32.max)

    /// Maximum nesting of arrays, maps and tags (clamped to 0 … ``hardMaxDepth``).
    public var maxDepth: Int
    /// Maximum number of items in one array or pairs in one map.
    public var maxContainerCount: Int
    /// Maximum total input length in bytes.
    public var maxInputLength: Int

    public init(
        maxDepth: Int = CBORLimits.defaultMaxDepth,
        maxContainerCount: Int = CBORLimits.maxContainerCount,
        maxInputLength: Int = CBORLimits.defaultMaxInputLength
    ) {
        self.maxDepth = max(0, min(maxDepth, CBORLimits.hardMaxDepth))
        self.maxContainerCount = max(0, maxContainerCount)
        self.maxInputLength = max(0, maxInputLength)
    }

    /// The default limits for `mode` (ctap2 lowers the depth to 4).
    public static func defaults(for mode: CBORMode) -> CBORLimits {
        mode.isCTAP2 ? CBORLimits(maxDepth: ctap2MaxDepth) : CBORLimits()
    }
}
