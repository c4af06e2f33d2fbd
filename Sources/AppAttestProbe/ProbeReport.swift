import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// A probe run's results and its reports (docs/probe.md, Output): a
/// scorecard like `run`'s, accepted-what-must-be-refused first, then
/// refused-valid (it locks real users out), then errors; JSON, JUnit,
/// Markdown and SARIF as for `run`.
public struct ProbeReport: Sendable {
    public let target: String
    public let results: [ProbeResult]
    public let seconds: Double
    /// The config's App ID: SARIF's category names it (never the port).
    public let appId: String
    /// The probe config's path, for SARIF's artifact location (made
    /// relative to the working directory); nil: none is given.
    public var configFile: String?

    public init(target: String, results: [ProbeResult], seconds: Double, appId: String = "", configFile: String? = nil) {
        self.target = target
        self.results = results
        self.seconds = seconds
        self.appId = appId
        self.configFile = configFile
    }

    public func count(_ grade: ProbeGrade) -> Int { results.filter { $0.grade == grade }.count }

    /// 0 when every check passed, else 1 (2 is for runs that could not happen).
    public var exitCode: Int32 { results.allSatisfy { $0.grade == .pass } ? 0 : 1 }

    /// Findings in the order the reports list them: dangerous first. A
    /// check that was not run is no finding of its own (its baseline is).
    public var findings: [ProbeResult] {
        [ProbeGrade.acceptedInvalid, .refusedValid, .error].flatMap { grade in results.filter { $0.grade == grade } }
    }

    /// The baseline checks that ran and did not pass while others depend on
    /// them: the reason the `notRun` checks were not sent.
    public var failedBaselines: [ProbeResult] {
        guard results.contains(where: { $0.grade == .notRun }) else { return [] }
        return results.filter { $0.check.group == "baseline" && $0.grade != .pass && $0.grade != .notRun }
    }

    static let labels: [ProbeGrade: String] = [
        .pass: "passed", .acceptedInvalid: "ACCEPTED what must be refused", .refusedValid: "refused what must be accepted",
        .error: "error (no verdict)", .notRun: "not run (baseline failed)",
    ]

    /// The one-line summary closing the scorecard.
    public var summary: String {
        let verdict = exitCode == 0 ? "PASS" : "FAIL"
        let notRun = count(.notRun) == 0 ? "" : ", \(count(.notRun)) not run (baseline failed)"
        return "\(verdict): \(count(.pass)) passed, \(count(.acceptedInvalid)) accepted what must be refused, "
            + "\(count(.refusedValid)) refused what must be accepted, \(count(.error)) errors\(notRun); "
            + "\(results.count) checks in \(String(format: "%.2f", seconds)) s"
    }

    // MARK: Text

    public func scorecard() -> String {
        var lines = ["TrustSuite probe — App Attest server at \(TerminalText.escape(target))"]
        // One failure, one finding: the baseline's reason leads (docs/probe.md).
        for baseline in failedBaselines {
            let dependents = results.filter { $0.grade == .notRun && $0.check.dependsOn.contains(baseline.check.id) }.count
            lines.append(
                TerminalText.escape("BASELINE FAILED: \(baseline.check.id): \(baseline.message)")
                    + " — \(dependents) checks that depend on it were not run")
        }
        let groups = results.reduce(into: [String]()) { if !$0.contains($1.check.group) { $0.append($1.check.group) } }
        lines.append("group        checks   pass  accInv  refVal  error  notRun")
        for group in groups + ["all"] {
            let mine = group == "all" ? results : results.filter { $0.check.group == group }
            let cells =
                [mine.count]
                + [ProbeGrade.pass, .acceptedInvalid, .refusedValid, .error, .notRun].map { grade in mine.filter { $0.grade == grade }.count
                }
            lines.append(
                group.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + cells.map { " " + String(repeating: " ", count: max(0, 6 - String($0).count)) + String($0) }.joined())
        }
        lines.append("(accInv: accepted what a correct server refuses — the dangerous kind; refVal: refused what a real device sends)")
        if !findings.isEmpty {
            lines.append("")
            lines.append("Not passed (\(findings.count)), accepted-what-must-be-refused first:")
            for result in findings {
                let marker = result.grade == .acceptedInvalid ? "!! " : "   "
                lines.append(marker + TerminalText.escape("[\(result.grade.rawValue)] \(result.check.id): \(result.message)"))
                lines.append("     sends: " + result.check.sends)
                lines.append("     bug class: " + TerminalText.escape(result.check.note.helpText))
                if let last = result.exchanges.last { lines.append("     last request: " + TerminalText.escape(last.summary)) }
            }
        }
        let notRun = results.filter { $0.grade == .notRun }
        if !notRun.isEmpty {
            lines.append("")
            lines.append("Not run (baseline failed) (\(notRun.count)): " + notRun.map(\.check.id).joined(separator: ", "))
        }
        lines.append("")
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    public func json() -> String {
        var totals: [String: JSONValue] = ["checks": .int(Int64(results.count))]
        for grade in ProbeGrade.allCases { totals[grade.rawValue] = .int(Int64(count(grade))) }
        let ordered = findings + results.filter { $0.grade == .notRun } + results.filter { $0.grade == .pass }
        var baseline: [String: JSONValue] = [:]
        if let failed = failedBaselines.first {
            baseline = ["failedBaseline": .object(["id": .string(failed.check.id), "message": .string(failed.message)])]
        }
        return JSONValue.object(
            baseline.merging([
                "schema": .string("trustsuite-probe-report/1"),
                "target": .string(target),
                "seconds": .double(seconds),
                "summary": .object(totals),
                "checks": .array(ordered.map(Self.object)),
            ]) { first, _ in first }
        ).jsonText
    }

    static func object(_ result: ProbeResult) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(result.check.id), "group": .string(result.check.group), "sends": .string(result.check.sends),
            "expected": .string(result.check.expected.rawValue), "grade": .string(result.grade.rawValue),
            "message": .string(result.message), "seconds": .double(result.seconds),
            "bugClass": noteObject(result.check.note),
        ]
        if !result.check.dependsOn.isEmpty { object["dependsOn"] = .array(result.check.dependsOn.map(JSONValue.string)) }
        object["exchanges"] = .array(
            result.exchanges.map { exchange in
                var entry: [String: JSONValue] = [
                    "kind": .string(exchange.request.kind.rawValue), "method": .string(exchange.request.method),
                    "path": .string(exchange.request.path),
                ]
                if let body = exchange.request.body { entry["body"] = .string(BoundedText.cut(body)) }
                switch exchange.response {
                case .answered(let status, let body, _):
                    entry["status"] = .int(Int64(status))
                    entry["answer"] = .string(String(decoding: body.prefix(ProbeRequest.shownBodyCharacters), as: UTF8.self))
                case .failed(let reason):
                    entry["failure"] = .string(reason)
                }
                return .object(entry)
            })
        return .object(object)
    }

    static func noteObject(_ note: VectorNote) -> JSONValue {
        var object: [String: JSONValue] = ["description": .string(note.description)]
        if let bugType = note.bugType { object["bugType"] = .string(bugType) }
        if let effect = note.effect { object["effect"] = .string(effect) }
        if !note.links.isEmpty { object["links"] = .array(note.links.map(JSONValue.string)) }
        return .object(object)
    }

    // MARK: Findings

    /// A check's result as the neutral finding every report writer takes
    /// (ConformanceReports): a wrong verdict is a failure with the bug class
    /// as its text, an error has no verdict, a check not run is skipped.
    func finding(_ result: ProbeResult, location: Finding.Location? = nil) -> Finding {
        let check = result.check
        let outcome: Finding.Outcome =
            switch result.grade {
            case .pass: .pass
            case .acceptedInvalid, .refusedValid: .failure
            case .error: .error
            case .notRun: .skipped
            }
        let rule: [String: JSONValue] = ["group": .string(check.group), "expected": .string(check.expected.rawValue)]
        return Finding(
            id: check.id, group: check.group, outcome: outcome, kind: outcome == .failure ? result.grade.rawValue : nil,
            message: result.message, detail: outcome == .failure ? check.note.helpText : nil, seconds: result.seconds,
            level: Finding.Level(level: result.grade == .refusedValid ? "warning" : "error"),
            rule: Finding.Rule(
                id: check.id, name: check.id, shortDescription: check.sends, help: check.note.helpText, helpURI: check.note.links.first,
                properties: rule),
            location: location, summary: "\(check.id): \(Self.labels[result.grade] ?? "") — \(result.message)",
            fingerprint: "trustsuiteProbeCheck/v1",
            properties: ["grade": .string(result.grade.rawValue), "target": .string(target)])
    }

    // MARK: JUnit

    /// One testsuite, named by the target; a check not run is `skipped`.
    public func junit() -> String {
        JUnitReport(
            name: "trustsuite-probe", seconds: seconds, suites: [JUnitReport.Suite(name: target, findings: results.map { finding($0) })]
        ).xml
    }

    // MARK: Markdown

    public func markdown() -> String {
        var lines = [
            "# App Attest server probe", "", "Target: `\(target)`. \(summary).", "",
        ]
        for baseline in failedBaselines {
            lines += [
                "**Baseline failed**: `\(baseline.check.id)`: \(MarkdownText.cell(baseline.message)); the checks that depend on it were not run.",
                "",
            ]
        }
        let rows: [[MarkdownTable.Cell]] = (findings + results.filter { $0.grade == .notRun } + results.filter { $0.grade == .pass }).map {
            result in
            let grade = result.grade == .acceptedInvalid ? "**\(Self.labels[result.grade] ?? "")**" : Self.labels[result.grade] ?? ""
            let links = result.check.note.links.enumerated().map { "[\($0.offset + 1)](\($0.element))" }.joined(separator: " ")
            // The message can quote the server (a challenge, an answer): quoted, so it renders as text (issue 44 item 6).
            let shown: MarkdownTable.Cell =
                result.grade == .pass || result.grade == .notRun ? .text(grade) : .textThenQuoted(grade + ": ", result.message)
            return [
                .text(result.check.id), .text(result.check.expected.rawValue), shown, .text(result.check.sends),
                .text(result.check.note.description + (links.isEmpty ? "" : " " + links)),
            ]
        }
        let table = MarkdownTable(
            columns: ["check", "expected", "result", "what the device sends", "bug class"].map { (.text($0), "---") }, rows: rows)
        return (lines + table.lines).joined(separator: "\n") + "\n"
    }

    // MARK: SARIF

    /// SARIF 2.1.0: one rule per check that did not pass (its bug class as
    /// help), one result each; accepted-invalid and errors at `error`,
    /// refused-valid at `warning`, as `run --sarif` grades them; checks not
    /// run are no results (their baseline is). Stable from run to run
    /// (docs/probe.md, Amendments (round 4)): the category
    /// (`automationDetails.id`) names the probe and the App ID, never the
    /// port; each result's location is the probe config, relative to the
    /// working directory, and the check as a logical location; the target
    /// URL is a property.
    public func sarif() -> String {
        let location = configFile.map { Finding.Location(uri: SARIFLog.relativeToWorkingDirectory($0)) }
        let run = SARIFLog.Run(
            tool: "trustsuite probe", automationId: sarifCategory, findings: findings.map { finding($0, location: location) })
        return SARIFLog(runs: [run]).json
    }

    /// `trustsuite-probe/appattest/APPID/`: the same for every run against
    /// the same app, whatever port the server got.
    public var sarifCategory: String {
        "trustsuite-probe/appattest/" + (appId.isEmpty ? "" : appId + "/")
    }
}
