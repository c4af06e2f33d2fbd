import TrustSuiteSupport

/// `la-right` (docs/vectors.md; docs/traces.md, la-right): a trace on one
/// current right (plain or persisted); each step answers the right's state
/// and the error, if any.
public enum LARightFamily: FamilyContract {
    public static var family: Family { .laRight }

    public enum Op: String, StrictVocabulary {
        case authorize, checkCanAuthorize, deauthorize, release, device, save, load, remove, removeAll
        case sign, decrypt, exchangeKeys, exportPublicKey, loadSecret
    }

    /// Apple's `LAAuthenticationRequirement` names (rule book LA11).
    public enum Requirement: String, StrictVocabulary {
        case `default`, biometry, biometryCurrentSet
        case biometryFallbackDefault = "biometry(fallback: default)"
        case biometryFallbackDevicePasscode = "biometry(fallback: devicePasscode)"
    }

    public struct Step: TraceStep {
        public var op: Op
        public var reason: String?
        public var user: UserName?
        public var identifier: String?
        public var secret: Base64Bytes?
        public var event: DeviceEventName?
        public var expect: Answer?
    }

    public struct Answer: Codable, Hashable, Sendable {
        public var state: String
        public var error: String?
    }

    public struct Notifications: Codable, Hashable, Sendable {
        public var didBecomeAuthorized: Int
        public var didBecomeUnauthorized: Int
    }

    public struct Input: Decodable, Sendable {
        public var requirement: Requirement?
        public var device: DeviceShape?
        public var steps: [Step]
        public var expectNotifications: Notifications?
    }

    public struct Output: Decodable, Sendable {
        public var steps: [Answer]
        public var notifications: Notifications?
    }

    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? {
        if let problem = Trace.problem(input.steps, output: output?.steps) { return problem }
        if let expected = input.expectNotifications, output?.notifications != expected {
            return "expectNotifications differs from output.notifications"
        }
        return nil
    }
}
