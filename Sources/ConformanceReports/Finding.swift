import TrustSuiteSupport

/// One judged item — a vector of `run` or `matrix`, a check of the probe —
/// in the neutral form every report writer takes (``JUnitReport``,
/// ``SARIFLog``, ``MarkdownTable``). The producers (the runner's grades, the
/// probe's grades) say what their grades mean here; the writers know
/// nothing of vectors, families or HTTP.
public struct Finding: Sendable {
    /// How the item went, in the four kinds every format has.
    public enum Outcome: String, Sendable, Hashable {
        /// Passed.
        case pass
        /// A verdict that is wrong (JUnit `failure`).
        case failure
        /// No verdict: a crash, a timeout, a setup that failed (JUnit `error`).
        case error
        /// Not judged: unsupported, or not run (JUnit `skipped`).
        case skipped
    }

    /// How bad a finding is, as SARIF says it: `level` and `rank`.
    public struct Level: Sendable, Hashable {
        /// `error` or `warning`.
        public let level: String
        /// 0–100, higher is worse; nil when the producer has no ranking.
        public let rank: Int?

        public init(level: String, rank: Int? = nil) {
            self.level = level
            self.rank = rank
        }
    }

    /// The rule a finding breaks: what the item checks, with its help text.
    public struct Rule: Sendable {
        public let id: String
        public let name: String
        public let shortDescription: String
        public let fullDescription: String?
        public let help: String
        public let helpURI: String?
        public let properties: [String: JSONValue]

        public init(
            id: String, name: String, shortDescription: String, fullDescription: String? = nil, help: String,
            helpURI: String? = nil, properties: [String: JSONValue] = [:]
        ) {
            self.id = id
            self.name = name
            self.shortDescription = shortDescription
            self.fullDescription = fullDescription
            self.help = help
            self.helpURI = helpURI
            self.properties = properties
        }
    }

    /// Where the item is defined: a vector file and line, or a server URL.
    public struct Location: Sendable {
        public let uri: String
        /// SARIF's `uriBaseId` when `uri` is relative to a named base.
        public let uriBaseId: String?
        public let line: Int?

        public init(uri: String, uriBaseId: String? = nil, line: Int? = nil) {
            self.uri = uri
            self.uriBaseId = uriBaseId
            self.line = line
        }
    }

    /// The item's stable id (a vector id, a check id).
    public let id: String
    /// The item's name in JUnit (`id [tcId 3]`).
    public let title: String
    /// The JUnit class the item belongs to (a family, a check group).
    public let group: String
    public let outcome: Outcome
    /// The outcome's detail: JUnit's `type` (`acceptedInvalid`, `critical`, …); nil for none.
    public let kind: String?
    /// Why it did not pass; empty on a pass.
    public let message: String
    /// A text to go with a failure (the bug class), or nil.
    public let detail: String?
    /// What the implementation wrote to stderr, or nil.
    public let stderr: String?
    public let seconds: Double
    /// The item's file (JUnit's `file`), or nil.
    public let file: String?
    public let level: Level
    public let rule: Rule?
    public let location: Location?
    /// SARIF's result message (defaults to `id: message`).
    public let summary: String
    /// The SARIF fingerprint's name (`trustsuiteVector/v1`); its value is ``id``.
    public let fingerprint: String
    /// Extra facts for SARIF's `properties`.
    public let properties: [String: JSONValue]

    public init(
        id: String, title: String? = nil, group: String, outcome: Outcome, kind: String? = nil, message: String = "",
        detail: String? = nil, stderr: String? = nil, seconds: Double = 0, file: String? = nil,
        level: Level = Level(level: "warning"), rule: Rule? = nil, location: Location? = nil, summary: String? = nil,
        fingerprint: String, properties: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.title = title ?? id
        self.group = group
        self.outcome = outcome
        self.kind = kind
        self.message = message
        self.detail = detail
        self.stderr = stderr
        self.seconds = seconds
        self.file = file
        self.level = level
        self.rule = rule
        self.location = location
        self.summary = summary ?? "\(id): \(message)"
        self.fingerprint = fingerprint
        self.properties = properties
    }
}
