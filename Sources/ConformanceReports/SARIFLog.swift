import Foundation
import TrustSuiteSupport

/// The one SARIF 2.1.0 writer (`run --sarif`, `matrix --sarif`, `probe
/// --sarif`): a run per implementation or server, one rule per distinct
/// ``Finding/Rule`` in the order first met, one result per finding that did
/// not pass.
public struct SARIFLog: Sendable {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    public struct Run: Sendable {
        /// The tool driver's name (`trustsuite`, `trustsuite probe`).
        public let tool: String
        public let toolProperties: [String: JSONValue]?
        /// `automationDetails.id`: the category code scanning keys results by.
        public let automationId: String
        public let findings: [Finding]
        /// Named bases of relative locations, each with its description.
        public let uriBases: [String: String]

        public init(
            tool: String, toolProperties: [String: JSONValue]? = nil, automationId: String, findings: [Finding],
            uriBases: [String: String] = [:]
        ) {
            self.tool = tool
            self.toolProperties = toolProperties
            self.automationId = automationId
            self.findings = findings
            self.uriBases = uriBases
        }
    }

    public let runs: [Run]

    public init(runs: [Run]) { self.runs = runs }

    public var json: String {
        JSONValue.object(["$schema": .string(Self.schemaURI), "version": .string("2.1.0"), "runs": .array(runs.map(Self.run))])
            .jsonText
    }

    static func run(_ run: Run) -> JSONValue {
        var ruleIds: [String: Int] = [:]
        var rules: [JSONValue] = []
        var results: [JSONValue] = []
        for finding in run.findings where finding.outcome != .pass {
            var index: Int?
            if let rule = finding.rule {
                if let known = ruleIds[rule.id] {
                    index = known
                } else {
                    index = rules.count
                    ruleIds[rule.id] = rules.count
                    rules.append(ruleObject(rule))
                }
            }
            results.append(result(finding, ruleIndex: index))
        }
        var driver: [String: JSONValue] = ["name": .string(run.tool), "rules": .array(rules)]
        if let properties = run.toolProperties { driver["properties"] = .object(properties) }
        var object: [String: JSONValue] = [
            "tool": .object(["driver": .object(driver)]),
            "automationDetails": .object(["id": .string(run.automationId)]),
            "results": .array(results),
        ]
        if !run.uriBases.isEmpty {
            // No uri: the base's place differs from machine to machine.
            object["originalUriBaseIds"] = .object(
                run.uriBases.mapValues { .object(["description": .object(["text": .string($0)])]) })
        }
        return .object(object)
    }

    static func ruleObject(_ rule: Finding.Rule) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(rule.id), "name": .string(rule.name),
            "shortDescription": .object(["text": .string(rule.shortDescription)]),
            "help": .object(["text": .string(rule.help)]),
            "properties": .object(rule.properties),
        ]
        if let full = rule.fullDescription { object["fullDescription"] = .object(["text": .string(full)]) }
        if let uri = rule.helpURI { object["helpUri"] = .string(uri) }
        return .object(object)
    }

    static func result(_ finding: Finding, ruleIndex: Int?) -> JSONValue {
        var location: [String: JSONValue] = ["logicalLocations": .array([.object(["fullyQualifiedName": .string(finding.id)])])]
        if let place = finding.location {
            var artifact: [String: JSONValue] = ["uri": .string(place.uri)]
            if let base = place.uriBaseId { artifact["uriBaseId"] = .string(base) }
            var physical: [String: JSONValue] = ["artifactLocation": .object(artifact)]
            if let line = place.line { physical["region"] = .object(["startLine": .int(Int64(line))]) }
            location["physicalLocation"] = .object(physical)
        }
        var object: [String: JSONValue] = [
            "level": .string(finding.level.level),
            "message": .object(["text": .string(finding.summary)]),
            "locations": .array([.object(location)]),
            "partialFingerprints": .object([finding.fingerprint: .string(finding.id)]),
            "properties": .object(finding.properties),
        ]
        if let rule = finding.rule { object["ruleId"] = .string(rule.id) }
        if let ruleIndex { object["ruleIndex"] = .int(Int64(ruleIndex)) }
        if let rank = finding.level.rank { object["rank"] = .double(Double(rank)) }
        return .object(object)
    }

    /// The base id of locations relative to the TrustSuite checkout.
    public static let checkoutBaseId = "TRUSTSUITE_ROOT"

    /// Where a file is, never as the absolute path of the machine that ran
    /// (issue 41): relative to the working directory when it is below it
    /// (code scanning reads paths from the repository's root); else, below
    /// the TrustSuite checkout (the built-in `Fixtures/` run from elsewhere),
    /// relative to it with the base id ``checkoutBaseId``; else relative to
    /// the working directory with `..` steps.
    public static func location(_ path: String, line: Int? = nil) -> Finding.Location {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let checkout = Checkout.root.standardizedFileURL.path
        if let below = relative(absolute, below: here) { return Finding.Location(uri: encoded(below), line: line) }
        if let below = relative(absolute, below: checkout) {
            return Finding.Location(uri: encoded(below), uriBaseId: checkoutBaseId, line: line)
        }
        return Finding.Location(uri: relativeToWorkingDirectory(absolute), line: line)
    }

    /// `path` relative to the working directory, with `..` steps when it is
    /// not below it, percent-encoded: never the absolute path of the machine
    /// that ran.
    public static func relativeToWorkingDirectory(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let from = here.split(separator: "/"), to = absolute.split(separator: "/")
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let steps = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared).map(String.init)
        return encoded(steps.joined(separator: "/"))
    }

    /// `path` relative to `folder` when it is below it.
    static func relative(_ path: String, below folder: String) -> String? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    /// Each path segment percent-encoded.
    public static func encoded(_ relative: String) -> String {
        relative.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/")
    }
}
