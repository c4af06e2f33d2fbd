import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// SARIF 2.1.0 for code-scanning tools (`run` and `matrix` `--sarif FILE`,
/// docs/vectors.md, Amendments (round 3)): one run per implementation, one
/// rule per vector group (its help text from the notes of the group's
/// flags), one result per finding, worst severity first (``Severity``):
/// critical and high (a crash on a `network` input, a `network` vector
/// accepted) at level `error`, the rest at `warning`; each result's `rank`
/// and properties carry its severity.
public enum SARIF {
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
        let checkoutBased = files.contains { SARIFLog.location($0.path).uriBaseId != nil }
        let runs = inputs.map { input in
            var rules: [String: Finding.Rule] = [:]
            let findings = input.report.cases.bySeverity().map { result in
                let id = ruleId(result.vector)
                let rule = rules[id] ?? self.rule(for: result.vector, id: id, file: byPath[result.vector.file], cases: input.report.cases)
                rules[id] = rule
                return result.finding(rule: rule, line: lineOfId.line(of: result.vector))
            }
            var properties: [String: JSONValue] = ["implementation": .string(input.name), "subject": .string(input.report.subject)]
            // Count and digest only: a SARIF log holds no absolute path.
            if let source = input.report.vectorSource {
                properties["vectors"] = .object(["files": .int(Int64(source.files)), "sha256": .string(source.sha256)])
            }
            return SARIFLog.Run(
                tool: "trustsuite", toolProperties: properties,
                automationId: "trustsuite/\(input.name)/", findings: findings,
                uriBases: checkoutBased
                    ? [SARIFLog.checkoutBaseId: "The TrustSuite checkout the vector files come from (its Fixtures/ folder)"] : [:])
        }
        return SARIFLog(runs: runs).json
    }

    /// `FILE#GROUP`, e.g. `attestation.json#1`: stable while groups keep their order.
    static func ruleId(_ vector: Vector) -> String {
        "\(URL(fileURLWithPath: vector.file).lastPathComponent)#\(vector.group + 1)"
    }

    static func rule(for vector: Vector, id: String, file: VectorFile?, cases: [CaseResult]) -> Finding.Rule {
        let flags = Set(cases.filter { $0.vector.file == vector.file && $0.vector.group == vector.group }.flatMap(\.vector.flags)).sorted()
        let name = vector.groupComment.isEmpty ? (file?.title ?? id) : vector.groupComment
        var help = [name]
        for flag in flags {
            if let note = file?.flagNotes[flag] { help.append("\(flag): \(note.helpText)") }
        }
        let title = file?.title ?? ""
        return Finding.Rule(
            id: id, name: name, shortDescription: name, fullDescription: title.isEmpty ? nil : title,
            help: help.joined(separator: "\n"), helpURI: flags.compactMap({ file?.flagNotes[$0]?.links.first }).first,
            properties: ["family": .string(vector.family.rawValue), "flags": .array(flags.map(JSONValue.string))])
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
