import Foundation
import TrustSuiteSupport

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

        public init(name: String, command: String?, report: RunReport) {
            self.name = name
            self.command = command
            self.report = report
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

    /// The summary lines of one column, as the scorecard has them (each
    /// family, and the cbor family's modes under it), leaving out the
    /// families it answered no vector of.
    public func summary(column: Int) -> [(label: String, counts: [Outcome: Int])] {
        Reports.rows(columns[column].report.cases).flatMap { family, parts -> [(label: String, counts: [Outcome: Int])] in
            guard family.cases.contains(where: { $0.grade != .unsupported }) else { return [] }
            return ([family] + parts).map { ($0.label, Self.counts($0.cases)) }
        }
    }

    /// How many cases had each outcome.
    static func counts(_ cases: [CaseResult]) -> [Outcome: Int] {
        Dictionary(cases.map { (Outcome($0), 1) }, uniquingKeysWith: +)
    }

    // MARK: Markdown

    public func markdown(command: String) -> String {
        var lines = ["# TrustSuite results matrix", "", "Made by `\(command)`.", ""]
        lines += summaryMarkdown()
        lines += [""] + capabilitiesMarkdown()
        lines += ["", "## Vectors", "",
                  "\(rows.filter(\.disagreement).count) of \(rows.count) vectors where implementations disagree; rows by worst "
                  + "severity (critical, high, medium, low, wrong reason), disagreements first within each.", ""]
        lines.append("| vector | family | expected | " + columns.map { escapeCell($0.name) }.joined(separator: " | ") + " |")
        lines.append("|---|---|---|" + columns.map { _ in "---|" }.joined())
        for row in rows {
            let expected = row.vector.result.rawValue + (row.vector.error.map { " (\($0))" } ?? "")
            let cells = row.outcomes.map { $0 == .acceptedInvalid || $0 == .critical ? "**\($0.label)**" : $0.label }
            lines.append("| \(escapeCell(row.vector.id)) | \(row.vector.family.rawValue) | \(escapeCell(expected)) | "
                         + cells.joined(separator: " | ") + " |")
        }
        lines += [""] + casesMarkdown()
        return lines.joined(separator: "\n") + "\n"
    }

    /// The summary table per implementation and family (README shows it).
    public func summaryMarkdown() -> [String] {
        var lines = ["## Summary", "",
                     "| implementation | family | vectors | " + Outcome.allCases.map(\.label).map { $0.lowercased() }.joined(separator: " | ") + " |",
                     "|---|---|---:|" + Outcome.allCases.map { _ in "---:|" }.joined()]
        for (index, column) in columns.enumerated() {
            for (label, counts) in summary(column: index) {
                let total = counts.values.reduce(0, +)
                let cells = Outcome.allCases.map { String(counts[$0] ?? 0) }
                lines.append("| \(escapeCell(column.name)) | \(label) | \(total) | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines
    }

    private func escapeCell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    // MARK: JSON

    public func json(command: String) -> String {
        let implementations: [JSONValue] = columns.enumerated().map { index, column in
            var summary: [String: JSONValue] = [:]
            for (label, counts) in self.summary(column: index) {
                summary[label] = .object(Dictionary(uniqueKeysWithValues: Outcome.allCases.map {
                    ($0.rawValue, JSONValue.int(Int64(counts[$0] ?? 0)))
                }))
            }
            var object: [String: JSONValue] = [
                "name": .string(column.name), "subject": .string(column.report.subject),
                "seconds": .double(column.report.seconds), "summary": .object(summary),
            ]
            if let command = column.command { object["command"] = .string(command) }
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
        return JSONValue.object([
            "schema": .string("trustsuite-matrix/1"),
            "command": .string(command),
            "implementations": .array(implementations),
            "rows": .array(rowValues),
        ]).jsonText
    }

    // MARK: HTML

    /// One self-contained page: summary, then the vector table with filters
    /// by family, by disagreement and by text.
    public func html(command: String) -> String {
        let e = Reports.escape
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>TrustSuite results matrix</title>
            <style>
            body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;margin:1em 0}
            td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#eee;position:sticky;top:0}
            td.pass{background:#e6f4e6}td.acceptedInvalid{background:#f4b0b0;font-weight:bold}
            td.rejectedValid,td.wrongAnswer{background:#f8dcc0}td.wrongReason{background:#f4ecd0}
            pre{white-space:pre-wrap;word-break:break-all;margin:0}td.unsupported{color:#888}td.error{background:#f0e08c}td.critical{background:#c00;color:#fff;font-weight:bold}
            .num{text-align:right}#filters{position:sticky;top:0;background:#fff;padding:.5em 0}
            </style></head><body>
            <h1>TrustSuite results matrix</h1>
            <p>Made by <code>\(e(command))</code>.</p>
            <h2>Summary</h2>
            <table><tr><th>implementation</th><th>family</th><th>vectors</th>
            """
        page += Outcome.allCases.map { "<th>\(e($0.label.lowercased()))</th>" }.joined() + "</tr>\n"
        for (index, column) in columns.enumerated() {
            for (label, counts) in summary(column: index) {
                page += "<tr><td>\(e(column.name))</td><td>\(e(label))</td>"
                    + "<td class=\"num\">\(counts.values.reduce(0, +))</td>"
                    + Outcome.allCases.map { "<td class=\"num\">\(counts[$0] ?? 0)</td>" }.joined() + "</tr>\n"
            }
        }
        page += "</table>\n" + capabilitiesHTML()
        page += "<h2>Vectors</h2>\n<div id=\"filters\">Family <select id=\"family\"><option value=\"\">all</option>"
        page += families.map { "<option>\($0.rawValue)</option>" }.joined()
        page += "</select> <label><input type=\"checkbox\" id=\"disagree\"> only disagreements</label>"
        page += " <input id=\"text\" placeholder=\"filter by id\"> <span id=\"shown\"></span></div>\n"
        page += "<table id=\"rows\"><thead><tr><th>vector</th><th>family</th><th>expected</th>"
        page += columns.map { "<th>\(e($0.name))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in rows {
            let expected = row.vector.result.rawValue + (row.vector.error.map { " (\($0))" } ?? "")
            page += "<tr data-family=\"\(row.vector.family.rawValue)\" data-disagree=\"\(row.disagreement ? 1 : 0)\">"
            page += "<td title=\"\(e(row.vector.comment))\">\(e(row.vector.id))</td><td>\(row.vector.family.rawValue)</td>"
            page += "<td>\(e(expected))</td>"
            for result in row.results {
                let outcome = Outcome(result)
                let detail = [result.answer?.error, result.message.isEmpty ? nil : result.message].compactMap { $0 }.joined(separator: " — ")
                page += "<td class=\"\(outcome.rawValue)\" title=\"\(e(detail))\">\(e(outcome.label))</td>"
            }
            page += "</tr>\n"
        }
        page += """
            </tbody></table>

            """
        page += casesHTML()
        page += """
            <script>
            const rows=[...document.querySelectorAll('#rows tbody tr')];
            function apply(){const f=document.getElementById('family').value,d=document.getElementById('disagree').checked,
            t=document.getElementById('text').value.toLowerCase();let n=0;
            for(const r of rows){const show=(!f||r.dataset.family===f)&&(!d||r.dataset.disagree==='1')&&
            (!t||r.firstChild.textContent.toLowerCase().includes(t));r.style.display=show?'':'none';if(show)n++;}
            document.getElementById('shown').textContent=n+' of '+rows.length+' vectors';}
            for(const id of ['family','disagree','text'])document.getElementById(id).addEventListener('input',apply);apply();
            </script></body></html>

            """
        return page
    }
}
