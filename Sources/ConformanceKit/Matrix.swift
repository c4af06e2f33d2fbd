import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// The results of several implementations on the same vectors, side by side
/// (as x509-limbo presents its harnesses): one row per vector, one column per
/// implementation, the rows where implementations disagree first.
public struct Matrix: Sendable {
    /// What one implementation did with one vector.
    public enum Outcome: String, Sendable, CaseIterable, Comparable {
        /// A crash, hang or no answer on a `network` input (``Severity/critical``):
        /// its own column, and first in every list.
        case critical
        case pass
        /// An invalid vector accepted: the dangerous kind of failure.
        case acceptedInvalid
        /// A valid vector rejected.
        case rejectedValid
        /// The right verdict with a wrong output (or, for the reference, code).
        case wrongAnswer
        /// An invalid vector refused with another code than the vector's.
        case wrongReason
        case unsupported
        case error

        public init(_ result: CaseResult) {
            switch result.grade {
            case .pass: self = .pass
            case .unsupported: self = .unsupported
            case .error: self = result.critical ? .critical : .error
            case .wrongReason: self = .wrongReason
            case .fail: self = result.acceptedInvalid ? .acceptedInvalid : result.rejectedValid ? .rejectedValid : .wrongAnswer
            }
        }

        /// Shown in the Markdown and HTML cells.
        public var label: String {
            switch self {
            case .critical: "CRITICAL"
            case .pass: "pass"
            case .acceptedInvalid: "ACCEPTED INVALID"
            case .rejectedValid: "rejected valid"
            case .wrongAnswer: "wrong answer"
            case .wrongReason: "wrong reason"
            case .unsupported: "unsupported"
            case .error: "error"
            }
        }

        public static func < (lhs: Outcome, rhs: Outcome) -> Bool {
            (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
        }
    }

    /// One implementation's run.
    public struct Column: Sendable {
        public let name: String
        public let command: String?
        public let report: RunReport
        /// Language, library and version, from the adapter list (nil for an `--adapter NAME=COMMAND`).
        public let implementation: Implementation?

        public init(name: String, command: String?, report: RunReport, implementation: Implementation? = nil) {
            self.name = name
            self.command = command
            self.report = report
            self.implementation = implementation
        }
    }

    /// What an implementation is, as its adapter list entry says.
    public struct Implementation: Sendable {
        public let language: String
        public let library: String
        public let version: String

        public init(language: String, library: String, version: String) {
            self.language = language
            self.library = library
            self.version = version
        }
    }

    public struct Row: Sendable {
        public let vector: Vector
        public let results: [CaseResult]
        public var outcomes: [Outcome] { results.map(Outcome.init) }
        /// Two implementations that both answered came to different outcomes.
        public var disagreement: Bool { Set(outcomes.filter { $0 != .unsupported }).count > 1 }
        /// The worst severity of any implementation's result, nil when none is a finding.
        public var severity: Severity? { results.compactMap(\.severity).min() }
    }

    public let columns: [Column]
    public let rows: [Row]

    /// Pairs the columns' cases by vector; every column must have run the same vectors in the same order.
    public init(columns: [Column]) {
        self.columns = columns
        let count = columns.map(\.report.cases.count).min() ?? 0
        let all = (0..<count).map { index in
            Row(vector: columns[0].report.cases[index].vector, results: columns.map { $0.report.cases[index] })
        }
        // Worst severity first (critical, high, …), then disagreements, each in file order.
        let ordered = all.filter(\.disagreement) + all.filter { !$0.disagreement }
        rows = (Severity.allCases.map(Optional.some) + [nil]).flatMap { severity in ordered.filter { $0.severity == severity } }
    }

    public var families: [Family] { Array(Set(rows.map(\.vector.family))).sorted() }

    /// Where the graded vectors came from (issue 61, item 6): the reference
    /// column's, which every column ran.
    public var vectorSource: VectorSource? { columns.first?.report.vectorSource }

    /// The summary lines of one column, as the scorecard has them (each
    /// family, and the cbor family's modes under it), leaving out the
    /// families and modes it answered no vector of (those it does not claim).
    public func summary(column: Int) -> [(label: String, counts: [Outcome: Int])] {
        Reports.rows(columns[column].report.cases).flatMap { family, parts -> [(label: String, counts: [Outcome: Int])] in
            ([family] + parts).filter(Self.claimed).map { ($0.label, Self.counts($0.cases)) }
        }
    }

    /// Whether an implementation answered any vector of a summary row.
    static func claimed(_ row: Reports.Row) -> Bool { row.cases.contains { $0.grade != .unsupported } }

    /// How many cases had each outcome.
    static func counts(_ cases: [CaseResult]) -> [Outcome: Int] {
        Dictionary(cases.map { (Outcome($0), 1) }, uniquingKeysWith: +)
    }

    // MARK: Markdown

    public func markdown(command: String) -> String {
        var lines = ["# TrustSuite results matrix", "", "Made by `\(command)`.", ""]
        if let source = vectorSource {
            lines += [
                "Vectors: " + source.origins.map { MarkdownText.code($0) }.joined(separator: "; ")
                    + " — \(source.filesText), sha256 `\(source.sha256)`.", "",
            ]
        }
        lines += summaryMarkdown()
        lines += [""] + capabilitiesMarkdown()
        lines += [
            "", "## Vectors", "",
            "\(rows.filter(\.disagreement).count) of \(rows.count) vectors where implementations disagree; rows by worst "
                + "severity (critical, high, medium, low, wrong reason), disagreements first within each.", "",
        ]
        // Names come from the adapter list or the adapters' hellos: quoted (`MarkdownText`).
        let table = MarkdownTable(
            columns: [(.text("vector"), "---"), (.text("family"), "---"), (.text("expected"), "---")]
                + columns.map { (.quoted($0.name), "---") },
            rows: rows.map { row in
                let expected = row.vector.result.rawValue + (row.vector.error.map { " (\($0))" } ?? "")
                return [.text(row.vector.id), .text(row.vector.family.rawValue), .text(expected)]
                    + row.outcomes.map { .text($0 == .acceptedInvalid || $0 == .critical ? "**\($0.label)**" : $0.label) }
            })
        lines += table.lines
        lines += [""] + casesMarkdown()
        return lines.joined(separator: "\n") + "\n"
    }

    /// The summary table per implementation and family (README shows it).
    public func summaryMarkdown() -> [String] {
        var rows: [[MarkdownTable.Cell]] = []
        for (index, column) in columns.enumerated() {
            for (label, counts) in summary(column: index) {
                let total = counts.values.reduce(0, +)
                rows.append(
                    [.quoted(column.name), .text(label), .text(String(total))] + Outcome.allCases.map { .text(String(counts[$0] ?? 0)) })
            }
        }
        let table = MarkdownTable(
            columns: [(.text("implementation"), "---"), (.text("family"), "---"), (.text("vectors"), "---:")]
                + Outcome.allCases.map { (.text($0.label.lowercased()), "---:") },
            rows: rows)
        return ["## Summary", ""] + table.lines
    }

    // MARK: JSON

    public func json(command: String) -> String {
        let implementations: [JSONValue] = columns.enumerated().map { index, column in
            var summary: [String: JSONValue] = [:]
            for (label, counts) in self.summary(column: index) {
                summary[label] = .object(
                    Dictionary(
                        uniqueKeysWithValues: Outcome.allCases.map {
                            ($0.rawValue, JSONValue.int(Int64(counts[$0] ?? 0)))
                        }))
            }
            var object: [String: JSONValue] = [
                "name": .string(column.name), "subject": .string(column.report.subject),
                "seconds": .double(column.report.seconds), "summary": .object(summary),
            ]
            if let command = column.command { object["command"] = .string(command) }
            if let implementation = column.implementation {
                object["language"] = .string(implementation.language)
                object["library"] = .string(implementation.library)
                object["version"] = .string(implementation.version)
            }
            if let capabilities = column.report.capabilities {
                object["capabilities"] = .array(capabilities.sorted().map(JSONValue.string))
            }
            object["gradesReasons"] = .bool(column.report.gradesReasons)
            if let checks = column.report.callerChecks { object["callerChecks"] = .array(checks.map(JSONValue.string)) }
            return .object(object)
        }
        let rowValues: [JSONValue] = rows.map { row in
            var results: [String: JSONValue] = [:]
            for (column, result) in zip(columns, row.results) {
                var cell: [String: JSONValue] = ["outcome": .string(Outcome(result).rawValue)]
                if let severity = result.severity { cell["severity"] = .string(severity.rawValue) }
                if let answer = result.answer {
                    cell["verdict"] = .string(answer.verdict.rawValue)
                    if let error = answer.error { cell["error"] = .string(error) }
                }
                if let code = result.receivedCode { cell["receivedCode"] = .string(code) }
                if !result.message.isEmpty { cell["message"] = .string(result.message) }
                results[column.name] = .object(cell)
            }
            var object: [String: JSONValue] = [
                "id": .string(row.vector.id), "file": .string(row.vector.file), "tcId": .int(Int64(row.vector.tcId)),
                "family": .string(row.vector.family.rawValue), "expected": .string(row.vector.result.rawValue),
                "disagreement": .bool(row.disagreement), "results": .object(results),
            ]
            if let error = row.vector.error { object["expectedError"] = .string(error) }
            if let attack = row.vector.attack { object["attack"] = .string(attack.rawValue) }
            if let severity = row.severity { object["severity"] = .string(severity.rawValue) }
            if let part = row.vector.part { object["part"] = .string(part) }
            if row.results.contains(where: \.grade.isFinding) { object["input"] = CaseInput.shown(row.vector.input) }
            return .object(object)
        }
        var root: [String: JSONValue] = [
            "schema": .string("trustsuite-matrix/1"),
            "command": .string(command),
            "implementations": .array(implementations),
            "rows": .array(rowValues),
        ]
        if let source = vectorSource { root["vectors"] = source.json }
        return JSONValue.object(root).jsonText
    }
}
