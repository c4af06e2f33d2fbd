import TrustSuiteSupport

/// `app-attest-attestation` (docs/vectors.md; docs/models/app-attest.md).
public enum AttestationFamily: FamilyContract {
    public static var family: Family { .appAttestAttestation }
    public static var fixtureFolder: String { "app-attest" }
    /// `receipts` when the vector asks for the receipt's check.
    public static func capabilities(of vector: Vector) -> Set<String> {
        vector.input["requireReceipt"]?.boolValue == true || vector.flags.contains(Capabilities.receiptRequiredFlag) ? ["receipts"] : []
    }

    public enum Environment: String, StrictVocabulary { case development, production }

    public struct Input: Decodable, Sendable, LaunchPolicyInput {
        public var attestationObject: Base64Bytes
        public var keyId: Base64Bytes
        public var clientDataHash: Base64Bytes
        /// The preimage of `clientDataHash`, when it is a hash.
        public var challenge: Base64Bytes?
        public var appId: String
        public var environment: Environment
        /// RFC 3339 (the reference parses it).
        public var validationTime: String
        /// Absent: Apple's App Attestation Root CA.
        public var trustAnchorsPem: [String]?
        /// Absent: Apple Root CA - G3.
        public var receiptTrustAnchorsPem: [String]?
        public var requireReceipt: Bool?
        public var allowedValidationCategories: [UInt32]?
        public var minimumBundleVersion: String?
        public var missingLaunchData: MissingLaunchData?
        /// Hex, 32 or 20 bytes each (macOS 27 launch data).
        public var allowedCodeDirectoryHashes: [HexBytes]?
    }

    public struct Output: Decodable, Sendable {
        public var publicKey: String?
        public var counter: Int64?
        public var receipt: String?
        public var receiptStatus: String?
        public var extensions: String?
    }

    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? {
        LaunchPolicyFields.problem(input, flags: flags)
    }
}
