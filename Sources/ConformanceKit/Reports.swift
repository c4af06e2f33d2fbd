import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// The three report formats of a run: text scorecard, JSON and JUnit XML.
public enum Reports {
    /// One row of the summary: a family, or (cbor) one of its modes.
    public struct Row: Sendable {
        public let label: String
        public let cases: [CaseResult]

        public func count(_ grade: Grade) -> Int { cases.filter { $0.grade == grade }.count }
        public var acceptedInvalid: Int { cases.filter(\.acceptedInvalid).count }
        public var rejectedValid: Int { cases.filter(\.rejectedValid).count }
        /// Crashes, hangs and silences on `network` inputs (``Severity/critical``).
        public var critical: Int { cases.filter(\.critical).count }

        /// total, pass, fail, accepted-invalid, wrong reason, unsupported, error, critical.
        var cells: [Int] {
            [cases.count, count(.pass), count(.fail), acceptedInvalid, count(.wrongReason), count(.unsupported), count(.error), critical]
        }

        var counts: [String: JSONValue] {
            var counts: [String: JSONValue] = ["total": .int(Int64(cases.count))]
            for grade in Grade.allCases { counts[grade.rawValue] = .int(Int64(count(grade))) }
            counts["acceptedInvalid"] = .int(Int64(acceptedInvalid))
            counts["rejectedValid"] = .int(Int64(rejectedValid))
            counts["critical"] = .int(Int64(critical))
            counts["severities"] = .object(
                Dictionary(
                    uniqueKeysWithValues: cases.severityCounts().map {
                        ($0.key.rawValue, JSONValue.int(Int64($0.value)))
                    }))
            return counts
        }
    }

    /// The summary rows of a run: each family, followed by its parts when it
    /// has some (the cbor family by decoding mode).
    public static func rows(_ cases: [CaseResult]) -> [(family: Row, parts: [Row])] {
        let families = Array(Set(cases.map(\.vector.family))).sorted()
        return families.map { family in
            let mine = cases.filter { $0.vector.family == family }
            var partNames: [String] = []
            var byPart: [String: [CaseResult]] = [:]
            for result in mine {
                guard let part = result.vector.part else { continue }
                if byPart[part] == nil { partNames.append(part) }
                byPart[part, default: []].append(result)
            }
            let parts = partNames.map { Row(label: "\(family.rawValue) \($0)", cases: byPart[$0] ?? []) }
            return (Row(label: family.rawValue, cases: mine), parts)
        }
    }

    /// The text scorecard: one line per family (and per cbor mode), then
    /// every case that did not pass, worst severity first (``Severity``).
    /// Text an adapter supplied is escaped for the terminal (`TerminalText`).
    /// `headline` replaces the PASS or FAIL of the last line, which follows
    /// the report's own exit status: a run gated on expected failures says
    /// its gate's verdict there (it printed FAIL and exited 0 before issue 41).
    public static func scorecard(_ report: RunReport, maxListed: Int = 50, headline: String? = nil) -> String {
        var lines: [String] = []
        lines.append("TrustSuite scorecard — subject: \(TerminalText.escape(report.subject))")
        if let source = report.vectorSource { lines.append(TerminalText.escape(source.line)) }
        let summary = rows(report.cases)
        let labels = summary.flatMap { [$0.family.label] + $0.parts.map { "  " + $0.label } }
        let width = max(8, labels.map(\.count).max() ?? 8)
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func line(_ label: String, _ cells: [Int]) -> String {
            pad(label, width) + cells.map { " " + leftPad(String($0), 6) }.joined()
        }
        lines.append(pad("family", width) + "  total   pass   fail accInv wrongR  unsup  error   crit")
        for (family, parts) in summary {
            lines.append(line(family.label, family.cells))
            for part in parts { lines.append(line("  " + part.label, part.cells)) }
        }
        lines.append(line("all", Row(label: "all", cases: report.cases).cells))
        lines.append("(accInv: invalid inputs accepted — the dangerous kind of failure, counted within fail)")
        lines.append("(crit: crashes, hangs or no answer on network inputs — critical, counted within error)")
        if report.gradesReasons {
            lines.append("(wrongR: invalid inputs refused with another code than the vector's — neither pass nor fail)")
        }
        if !report.unknownFamilies.isEmpty {
            lines.append(
                "(families the subject named that this suite does not know, so none of their vectors ran: "
                    + TerminalText.escape(report.unknownFamilies.joined(separator: ", ")) + ")")
        }
        if let checks = report.callerChecks, !checks.isEmpty {
            lines.append(
                "(caller checks: " + TerminalText.escape(checks.joined(separator: ", "))
                    + " — done by the adapter, as the library's documentation leaves them to its caller)")
        }

        let problems = report.cases.bySeverity()
        if !problems.isEmpty {
            lines.append("")
            lines.append("Not passed (\(problems.count)), by severity (critical, high, medium, low, wrong reason, other):")
            for result in problems.prefix(maxListed) {
                let marker = result.severity == .critical || result.severity == .high ? "!! " : "   "
                let label = result.severity.map { "\($0.rawValue) " } ?? ""
                lines.append(
                    marker
                        + TerminalText.escape(
                            "[\(label)\(result.grade.rawValue)] \(result.vector.id) "
                                + "(\(result.vector.file) tcId \(result.vector.tcId)): \(result.message)"))
                if let input = oneLineInput(result.vector) { lines.append("     input: " + TerminalText.escape(input)) }
                if let explanation = result.explanation {
                    for line in explanation.split(separator: "\n") { lines.append("     why: " + TerminalText.escape(String(line))) }
                }
            }
            if problems.count > maxListed { lines.append("   … \(problems.count - maxListed) more (see --json)") }
        }
        lines.append("")
        if report.graded == 0 {
            lines.append(
                "NOTHING TESTED: no vector was graded (\(report.cases.count) selected, "
                    + "\(report.count(.unsupported)) unsupported, \(report.count(.error)) errors)")
        }
        let verdict = headline ?? (report.exitCode == 0 ? "PASS" : "FAIL")
        let critical = report.cases.filter(\.critical).count
        if critical > 0 {
            lines.append("CRITICAL: \(critical) network input\(critical == 1 ? "" : "s") crashed, hung or silenced the implementation")
        }
        lines.append(
            "\(verdict): \(report.count(.pass)) passed, \(report.count(.fail)) failed "
                + "(\(report.cases.filter(\.acceptedInvalid).count) accepted invalid input), "
                + "\(report.count(.wrongReason)) wrong reason, "
                + "\(report.count(.unsupported)) unsupported, \(report.count(.error)) errors "
                + "in \(String(format: "%.2f", report.seconds)) s")
        return lines.joined(separator: "\n")
    }

    /// The input in one line for the scorecard, when it is short (a cbor
    /// vector's hex); the JSON report has every input.
    static func oneLineInput(_ vector: Vector) -> String? {
        let text = CaseInput.shown(vector.input).jsonText
        return text.count <= 200 && !text.contains("\n") ? text : nil
    }

    static func leftPad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }

    /// The JSON report: summary per family (cbor per mode too) and one
    /// object per vector — findings by severity (critical first), then
    /// passes, then unsupported cases.
    public static func json(_ report: RunReport) -> String {
        var families: [String: JSONValue] = [:]
        for (family, parts) in rows(report.cases) {
            var counts = family.counts
            if !parts.isEmpty {
                counts["parts"] = .object(
                    Dictionary(
                        uniqueKeysWithValues: parts.compactMap { part in
                            part.cases.first?.vector.part.map { ($0, JSONValue.object(part.counts)) }
                        }))
            }
            families[family.label] = .object(counts)
        }
        let problems = report.cases.bySeverity()
        let cases = (problems + report.cases.filter { $0.grade == .pass } + report.cases.filter { $0.grade == .unsupported })
            .map(caseObject)
        var totals = Row(label: "all", cases: report.cases).counts
        totals["graded"] = .int(Int64(report.graded))
        var root: [String: JSONValue] = [
            "schema": .string("trustsuite-report/1"),
            "subject": .string(report.subject),
            "seconds": .double(report.seconds),
            "summary": .object(totals),
            "families": .object(families),
            "cases": .array(cases),
        ]
        if let stderr = report.subjectStderr { root["subjectStderr"] = .string(stderr) }
        if let capabilities = report.capabilities { root["capabilities"] = .array(capabilities.sorted().map(JSONValue.string)) }
        root["gradesReasons"] = .bool(report.gradesReasons)
        if let checks = report.callerChecks { root["callerChecks"] = .array(checks.map(JSONValue.string)) }
        if !report.unknownFamilies.isEmpty { root["unknownFamilies"] = .array(report.unknownFamilies.map(JSONValue.string)) }
        if let source = report.vectorSource { root["vectors"] = source.json }
        return JSONValue.object(root).jsonText
    }

    static func caseObject(_ result: CaseResult) -> JSONValue {
        var object: [String: JSONValue] = [
            "file": .string(result.vector.file),
            "family": .string(result.vector.family.rawValue),
            "tcId": .int(Int64(result.vector.tcId)),
            "id": .string(result.vector.id),
            "expected": .string(result.vector.result.rawValue),
            "grade": .string(result.grade.rawValue),
            "acceptedInvalid": .bool(result.acceptedInvalid),
        ]
        if let part = result.vector.part { object["part"] = .string(part) }
        if let attack = result.vector.attack { object["attack"] = .string(attack.rawValue) }
        if let severity = result.severity { object["severity"] = .string(severity.rawValue) }
        if let stderr = result.stderr { object["stderr"] = .string(stderr) }
        if let code = result.vector.error { object["expectedError"] = .string(code) }
        if let code = result.receivedCode { object["receivedCode"] = .string(code) }
        // A case that did not pass carries what reproduces it.
        if result.grade.isFinding { object["input"] = CaseInput.shown(result.vector.input) }
        if let answer = result.answer {
            object["verdict"] = .string(answer.verdict.rawValue)
            if let error = answer.error { object["error"] = .string(error) }
            if let output = answer.output { object["output"] = output }
        }
        if !result.message.isEmpty { object["message"] = .string(result.message) }
        if result.grade != .pass, let explanation = result.explanation { object["explanation"] = .string(explanation) }
        return .object(object)
    }

    /// JUnit XML: one testsuite per family, one testcase per vector; in each
    /// suite the findings come first by severity (critical first), and each
    /// failure's or error's message starts with its severity.
    public static func junit(_ report: RunReport) -> String {
        let suites = report.families.map { family in
            let all = report.cases.filter { $0.vector.family == family }
            return JUnitReport.Suite(
                name: family.rawValue, findings: (all.bySeverity() + all.filter { !$0.grade.isFinding }).map { $0.finding() })
        }
        var properties: [(String, String)] = []
        if let source = report.vectorSource {
            properties = [
                ("trustsuite.vectors.origins", source.origins.joined(separator: "; ")),
                ("trustsuite.vectors.files", String(source.files)), ("trustsuite.vectors.sha256", source.sha256),
            ]
        }
        return JUnitReport(name: "trustsuite", seconds: report.seconds, suites: suites, properties: properties).xml
    }
}
