import TrustSuiteSupport
import Foundation

/// SARIF 2.1.0 for code-scanning tools (`run` and `matrix` `--sarif FILE`,
/// docs/vectors.md, Amendments (round 3)): one run per implementation, one
/// rule per vector group (its help text from the notes of the group's
/// flags), one result per finding, worst severity first (``Severity``):
/// critical and high (a crash on a `network` input, a `network` vector
/// accepted) at level `error`, the rest at `warning`; each result's `rank`
/// and properties carry its severity.
public enum SARIF {
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    /// One implementation's report, named as in the matrix.
    public struct Input: Sendable {
        public let name: String
        public let report: RunReport
        public init(name: String, report: RunReport) {
            self.name = name
            self.report = report
        }
    }

    /// The log; `files` gives the notes and titles of the vector files.
    public static func log(_ inputs: [Input], files: [VectorFile]) -> String {
        let byPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var lineOfId = LineIndex()
        let checkoutBased = files.contains { location($0.path).base != nil }
        let runs: [JSONValue] = inputs.map { input in
            let findings = input.report.cases.bySeverity()
            var ruleIds: [String] = []
            var rules: [JSONValue] = []
            var results: [JSONValue] = []
            for result in findings {
                let id = ruleId(result.vector)
                let index: Int
                if let known = ruleIds.firstIndex(of: id) {
                    index = known
                } else {
                    index = ruleIds.count
                    ruleIds.append(id)
                    rules.append(rule(for: result.vector, id: id, file: byPath[result.vector.file], cases: input.report.cases))
                }
                results.append(resultObject(result, ruleId: id, ruleIndex: index, line: lineOfId.line(of: result.vector)))
            }
            var run: [String: JSONValue] = [
                "tool": .object([
                    "driver": .object([
                        "name": .string("trustsuite"), "rules": .array(rules),
                        "properties": .object(["implementation": .string(input.name), "subject": .string(input.report.subject)]),
                    ])
                ]),
                "automationDetails": .object(["id": .string("trustsuite/\(input.name)/")]),
                "results": .array(results),
            ]
            if checkoutBased {
                // No uri: the checkout's place differs from machine to machine.
                run["originalUriBaseIds"] = .object([
                    checkoutBaseId: .object([
                        "description": .object([
                            "text": .string("The TrustSuite checkout the vector files come from (its Fixtures/ folder)")
                        ])
                    ])
                ])
            }
            return .object(run)
        }
        return JSONValue.object(["$schema": .string(schemaURI), "version": .string("2.1.0"), "runs": .array(runs)]).jsonText
    }

    /// `FILE#GROUP`, e.g. `attestation.json#1`: stable while groups keep their order.
    static func ruleId(_ vector: Vector) -> String {
        "\(URL(fileURLWithPath: vector.file).lastPathComponent)#\(vector.group + 1)"
    }

    static func rule(for vector: Vector, id: String, file: VectorFile?, cases: [CaseResult]) -> JSONValue {
        let flags = Set(cases.filter { $0.vector.file == vector.file && $0.vector.group == vector.group }.flatMap(\.vector.flags)).sorted()
        let name = vector.groupComment.isEmpty ? (file?.title ?? id) : vector.groupComment
        var help = [name]
        for flag in flags {
            if let note = file?.flagNotes[flag] { help.append("\(flag): \(note.helpText)") }
        }
        var object: [String: JSONValue] = [
            "id": .string(id), "name": .string(name),
            "shortDescription": .object(["text": .string(name)]),
            "help": .object(["text": .string(help.joined(separator: "\n"))]),
            "properties": .object(["family": .string(vector.family.rawValue), "flags": .array(flags.map(JSONValue.string))]),
        ]
        if let title = file?.title, !title.isEmpty { object["fullDescription"] = .object(["text": .string(title)]) }
        if let link = flags.compactMap({ file?.flagNotes[$0]?.links.first }).first { object["helpUri"] = .string(link) }
        return .object(object)
    }

    static func level(_ result: CaseResult) -> String {
        result.severity == .critical || result.severity == .high ? "error" : "warning"
    }

    static func resultObject(_ result: CaseResult, ruleId: String, ruleIndex: Int, line: Int?) -> JSONValue {
        let vector = result.vector
        let kind =
            result.acceptedInvalid
            ? "accepted an invalid vector"
            : result.rejectedValid
                ? "rejected a valid vector"
                : result.grade == .wrongReason ? "refused for a wrong reason" : result.grade == .error ? "error" : "wrong output"
        var region: [String: JSONValue] = [:]
        if let line { region["startLine"] = .int(Int64(line)) }
        let place = location(vector.file)
        var artifact: [String: JSONValue] = ["uri": .string(place.uri)]
        if let base = place.base { artifact["uriBaseId"] = .string(base) }
        var physical: [String: JSONValue] = ["artifactLocation": .object(artifact)]
        if !region.isEmpty { physical["region"] = .object(region) }
        var properties: [String: JSONValue] = [
            "tcId": .int(Int64(vector.tcId)), "grade": .string(result.grade.rawValue), "expected": .string(vector.result.rawValue),
            "input": CaseInput.shown(vector.input),
        ]
        if let code = vector.error { properties["expectedCode"] = .string(code) }
        if let code = result.receivedCode { properties["receivedCode"] = .string(code) }
        if let attack = vector.attack { properties["attack"] = .string(attack.rawValue) }
        let severity = result.severity ?? .other
        properties["severity"] = .string(severity.rawValue)
        return .object([
            "ruleId": .string(ruleId), "ruleIndex": .int(Int64(ruleIndex)), "level": .string(level(result)),
            "rank": .double(Double(severity.rank)),
            "message": .object(["text": .string("\(vector.id): \(kind) — \(result.message)")]),
            "locations": .array([
                .object([
                    "physicalLocation": .object(physical),
                    "logicalLocations": .array([.object(["fullyQualifiedName": .string(vector.id)])]),
                ])
            ]),
            "partialFingerprints": .object(["trustsuiteVector/v1": .string(vector.id)]),
            "properties": .object(properties),
        ])
    }

    /// The base id of locations relative to the TrustSuite checkout.
    static let checkoutBaseId = "TRUSTSUITE_ROOT"

    /// Where a vector file is, never as the absolute path of the machine that
    /// ran (issue 41): relative to the working directory when it is below it
    /// (code scanning reads paths from the repository's root); else, below
    /// the TrustSuite checkout (the built-in `Fixtures/` run from elsewhere),
    /// relative to it with the base id ``checkoutBaseId``; else relative to
    /// the working directory with `..` steps.
    static func location(_ path: String) -> (uri: String, base: String?) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let checkout = Checkout.root.standardizedFileURL.path
        if let below = relative(absolute, below: here) { return (encoded(below), nil) }
        if let below = relative(absolute, below: checkout) { return (encoded(below), checkoutBaseId) }
        let from = here.split(separator: "/"), to = absolute.split(separator: "/")
        let shared = zip(from, to).prefix { $0 == $1 }.count
        let steps = Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared).map(String.init)
        return (encoded(steps.joined(separator: "/")), nil)
    }

    /// `path` relative to `folder` when it is below it.
    static func relative(_ path: String, below folder: String) -> String? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    static func encoded(_ relative: String) -> String {
        relative.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/")
    }

    /// The line of each vector's `"id"` in its file, read once per file.
    struct LineIndex {
        private var files: [String: [String: Int]] = [:]

        mutating func line(of vector: Vector) -> Int? {
            if files[vector.file] == nil { files[vector.file] = Self.index(vector.file) }
            return files[vector.file]?[vector.id]
        }

        static func index(_ path: String) -> [String: Int] {
            guard let bytes = try? RegularFile.read(path, limit: VectorLoader.maxFileBytes) else { return [:] }
            var found: [String: Int] = [:]
            for (number, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            {
                guard let key = line.range(of: "\"id\": \"") else { continue }
                let rest = line[key.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { continue }
                found[String(rest[..<end])] = found[String(rest[..<end])] ?? number + 1
            }
            return found
        }
    }
}
