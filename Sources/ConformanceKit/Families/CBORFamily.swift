import TrustSuiteSupport

/// `cbor` (docs/vectors.md; docs/models/cbor.md): decode `cborHex` in `mode`,
/// with tag validity when `tagValidity` is true.
public enum CBORFamily: FamilyContract {
    public static var family: Family { .cbor }

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
