import TrustSuiteSupport

/// `app-attest-assertion` (docs/vectors.md; docs/models/app-attest.md).
public enum AssertionFamily: FamilyContract {
    public static var family: Family { .appAttestAssertion }
    public static var fixtureFolder: String { "app-attest" }
    /// `counter` for the vectors whose verdict needs the previous counter.
    public static func capabilities(of vector: Vector) -> Set<String> {
        vector.flags.contains(Capabilities.replayFlag) ? ["counter"] : []
    }

    public struct Input: Decodable, Sendable, LaunchPolicyInput {
        public var assertion: Base64Bytes
        public var clientData: Base64Bytes
        /// X9.63 uncompressed point or SPKI DER.
        public var publicKey: Base64Bytes
        public var appId: String
        public var previousCounter: UInt32
        public var allowedValidationCategories: [UInt32]?
        public var minimumBundleVersion: String?
        public var missingLaunchData: MissingLaunchData?
        /// Hex, 32 or 20 bytes each (macOS 27 launch data).
        public var allowedCodeDirectoryHashes: [HexBytes]?
    }

    public struct Output: Decodable, Sendable {
        public var counter: Int64?
        public var extensions: String?
    }

    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? {
        LaunchPolicyFields.problem(input, flags: flags)
    }
}
