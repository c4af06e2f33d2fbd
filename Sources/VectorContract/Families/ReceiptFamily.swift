import TrustSuiteSupport

/// `app-attest-receipt` (docs/vectors.md; docs/models/app-attest.md, receipts).
public enum ReceiptFamily: FamilyContract {
    public static var family: Family { .appAttestReceipt }
    public static var fixtureFolder: String { "app-attest" }

    public struct Input: Decodable, Sendable {
        public var receipt: Base64Bytes
        /// Absent: Apple Root CA - G3.
        public var trustAnchorsPem: [String]?
        /// RFC 3339 (the reference parses it).
        public var validationTime: String
        public var appId: String?
        public var publicKey: Base64Bytes?
        /// Seconds; the receipt's creation time may be at most this old.
        public var maxAge: Int64?
        /// Seconds the creation time may lie after the validation time (0…86400).
        public var clockSkew: Int64?
    }

    public struct Output: Decodable, Sendable {
        public enum Kind: String, StrictVocabulary { case attest = "ATTEST", receipt = "RECEIPT" }
        public var type: Kind?
        public var appId: String?
        public var creationTime: String?
        public var riskMetric: Int64?
    }
}
