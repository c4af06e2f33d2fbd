import TrustSuiteSupport

/// `cbor` (docs/vectors.md; docs/models/cbor.md): decode `cborHex` in `mode`,
/// with tag validity when `tagValidity` is true.
public enum CBORFamily: FamilyContract {
    public static var family: Family { .cbor }
    /// The decoding mode: a row of its own in the reports.
    public static func part(of input: JSONValue) -> String? { input["mode"]?.stringValue ?? "wellFormed" }
    /// The mode, and `tagValidity` when the vector asks for tag checks.
    public static func capabilities(of vector: Vector) -> Set<String> {
        var needed: Set<String> = [vector.input["mode"]?.stringValue ?? "wellFormed"]
        if vector.input["tagValidity"]?.boolValue == true { needed.insert("tagValidity") }
        return needed
    }

    public enum Mode: String, StrictVocabulary { case wellFormed, deterministic, ctap2 }

    public struct Input: Decodable, Sendable {
        public var cborHex: HexBytes
        public var mode: Mode?
        public var tagValidity: Bool?
    }

    /// `diagnostic` on valid; the reference also answers `offset` on invalid.
    public struct Output: Decodable, Sendable {
        public var diagnostic: String?
        public var offset: Int?
    }
}
