import TrustSuiteSupport

/// `keychain-acl` (docs/vectors.md, "Shapes of the model families";
/// docs/models/keychain-acl.md): create an access control, let events happen,
/// perform one operation with the given evidence.
public enum KeychainACLFamily: FamilyContract {
    public static var family: Family { .keychainACL }

    public struct Input: Decodable, Sendable {
        /// A short (`ak` …) or long (`whenUnlocked` …) name; absent: `ak`.
        public var protection: String?
        /// Flag names of docs/models/keychain-acl.md, `or`/`and` included.
        public var flags: [String]?
        public var synchronizable: Bool?
        /// The state at creation.
        public var device: DeviceShape?
        /// What happened after creation, in order.
        public var events: [DeviceEventName]?
        public var operation: KeychainOperationName
        /// What the user proves when asked (`cancel` for a dismissed prompt).
        public var evidence: [String]?
    }

    public struct Output: Decodable, Sendable {
        /// The requirement tree as text, e.g. `or(biometryCurrentSet, devicePasscode)`.
        public var requires: String?
    }
}
