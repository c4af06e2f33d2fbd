import Foundation

/// The three report formats of a run: text scorecard, JSON and JUnit XML.
public enum Reports {
    /// The text scorecard: one line per family, then every case that did not
    /// pass, accepted-invalid cases first.
    public static func scorecard(_ report: RunReport, maxListed: Int = 50) -> String {
        var lines: [String] = []
        lines.append("TrustSuite scorecard — subject: \(report.subject)")
        let width = max(8, report.families.map(\.rawValue.count).max() ?? 8)
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        lines.append(pad("family", width) + "  total   pass   fail  unsup  error")
        for family in report.families {
            let total = report.cases.filter { $0.vector.family == family }.count
            let cells = [total] + Grade.allCases.map { report.count($0, family: family) }
            lines.append(pad(family.rawValue, width) + cells.map { " " + leftPad(String($0), 6) }.joined())
        }
        let cells = [report.cases.count] + Grade.allCases.map { report.count($0) }
        lines.append(pad("all", width) + cells.map { " " + leftPad(String($0), 6) }.joined())

        let problems = ordered(report.cases.filter { $0.grade == .fail || $0.grade == .error })
        if !problems.isEmpty {
            lines.append("")
            lines.append("Not passed (\(problems.count)), accepted-invalid first:")
            for result in problems.prefix(maxListed) {
                let marker = result.acceptedInvalid ? "!! " : "   "
                lines.append("\(marker)[\(result.grade.rawValue)] \(result.vector.id) "
                             + "(\(result.vector.file) tcId \(result.vector.tcId)): \(result.message)")
            }
            if problems.count > maxListed { lines.append("   … \(problems.count - maxListed) more (see --json)") }
        }
        lines.append("")
        let verdict = report.exitCode == 0 ? "PASS" : "FAIL"
        lines.append("\(verdict): \(report.count(.pass)) passed, \(report.count(.fail)) failed, "
                     + "\(report.count(.unsupported)) unsupported, \(report.count(.error)) errors "
                     + "in \(String(format: "%.2f", report.seconds)) s")
        return lines.joined(separator: "\n")
    }

    static func leftPad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }

    /// Failures that accept invalid input come first, then the rest in run order.
    static func ordered(_ cases: [CaseResult]) -> [CaseResult] {
        cases.filter(\.acceptedInvalid) + cases.filter { !$0.acceptedInvalid }
    }

    /// The JSON report: summary per family and one object per vector.
    public static func json(_ report: RunReport) -> String {
        var families: [String: JSONValue] = [:]
        for family in report.families {
            var counts: [String: JSONValue] = [:]
            for grade in Grade.allCases { counts[grade.rawValue] = .int(Int64(report.count(grade, family: family))) }
            families[family.rawValue] = .object(counts)
        }
        let cases: [JSONValue] = ordered(report.cases.filter { $0.grade != .pass })
            .map(caseObject) + report.cases.filter { $0.grade == .pass }.map(caseObject)
        var totals: [String: JSONValue] = ["total": .int(Int64(report.cases.count))]
        for grade in Grade.allCases { totals[grade.rawValue] = .int(Int64(report.count(grade))) }
        var root: [String: JSONValue] = [
            "schema": .string("trustsuite-report/1"),
            "subject": .string(report.subject),
            "seconds": .double(report.seconds),
            "summary": .object(totals),
            "families": .object(families),
            "cases": .array(cases),
        ]
        if let stderr = report.subjectStderr { root["subjectStderr"] = .string(stderr) }
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
        if let code = result.vector.error { object["expectedError"] = .string(code) }
        if let answer = result.answer {
            object["verdict"] = .string(answer.verdict.rawValue)
            if let error = answer.error { object["error"] = .string(error) }
            if let output = answer.output { object["output"] = output }
        }
        if !result.message.isEmpty { object["message"] = .string(result.message) }
        return .object(object)
    }

    /// JUnit XML: one testsuite per family, one testcase per vector.
    public static func junit(_ report: RunReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"trustsuite\" tests=\"\(report.cases.count)\" "
            + "failures=\"\(report.count(.fail))\" errors=\"\(report.count(.error))\" "
            + "skipped=\"\(report.count(.unsupported))\" time=\"\(report.seconds)\">\n"
        for family in report.families {
            let cases = report.cases.filter { $0.vector.family == family }
            xml += "  <testsuite name=\"\(escape(family.rawValue))\" tests=\"\(cases.count)\" "
                + "failures=\"\(report.count(.fail, family: family))\" "
                + "errors=\"\(report.count(.error, family: family))\" "
                + "skipped=\"\(report.count(.unsupported, family: family))\">\n"
            for result in cases {
                let v = result.vector
                xml += "    <testcase classname=\"\(escape(v.family.rawValue))\" "
                    + "name=\"\(escape("\(v.id) [tcId \(v.tcId)]"))\" file=\"\(escape(v.file))\" "
                    + "time=\"\(result.seconds)\""
                switch result.grade {
                case .pass:
                    xml += "/>\n"
                    continue
                case .fail:
                    let kind = result.acceptedInvalid ? "acceptedInvalid" : "wrongVerdict"
                    xml += ">\n      <failure type=\"\(kind)\" message=\"\(escape(result.message))\"/>\n"
                case .error:
                    xml += ">\n      <error message=\"\(escape(result.message))\"/>\n"
                case .unsupported:
                    xml += ">\n      <skipped message=\"\(escape(result.message))\"/>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// XML attribute escaping; control characters XML 1.0 cannot carry are dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
