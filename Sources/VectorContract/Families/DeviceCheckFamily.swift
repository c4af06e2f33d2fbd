import TrustSuiteSupport

/// `devicecheck` (docs/vectors.md): a trace of requests against one fresh
/// DeviceCheck server; each step answers `{status, body}`.
public enum DeviceCheckFamily: FamilyContract {
    public static var family: Family { .devicecheck }
    public static var fixtureFolder: String { "app-attest" }

    public enum Op: String, StrictVocabulary {
        case validateDeviceToken = "validate_device_token"
        case queryTwoBits = "query_two_bits"
        case updateTwoBits = "update_two_bits"
    }

    public struct Step: TraceStep {
        public var op: Op
        /// The request body as the client sends it: any JSON, since wrong
        /// types are what many vectors test.
        public var request: JSONValue?
        /// RFC 3339.
        public var at: String
        public var team: String?
        public var authorized: Bool?
        public var expect: Answer?
    }

    public struct Answer: Codable, Hashable, Sendable {
        public var status: Int
        /// Text (empty for none) or the bits object.
        public var body: JSONValue
    }

    public struct Input: Decodable, Sendable {
        public var steps: [Step]
    }

    public struct Output: Decodable, Sendable {
        public var steps: [Answer]
    }

    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? {
        Trace.problem(input.steps, output: output?.steps)
    }
}
