import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// The parts of the matrix added by docs/vectors.md, Amendments (round 3):
/// the capabilities each implementation declared, as columns, and every
/// vector some implementation did not pass with what reproduces it (its
/// input, the expected and the received codes).
extension Matrix {
    /// The capability columns: the known names, then any other name declared.
    var capabilityNames: [String] {
        let declared = Set(columns.compactMap(\.report.capabilities).joined())
        return Capabilities.known + declared.subtracting(Capabilities.known).sorted()
    }

    /// One cell per capability: `yes`, `no`, or `—` for an implementation that declared none.
    func capabilityCells(_ column: Column) -> [String] {
        guard let declared = column.report.capabilities else { return capabilityNames.map { _ in "—" } }
        return capabilityNames.map { declared.contains($0) ? "yes" : "no" }
    }

    /// Rows with at least one finding (fail, wrong reason, error), in matrix order.
    var findingRows: [Row] { rows.filter { $0.results.contains(where: \.grade.isFinding) } }

    static func expectedText(_ vector: Vector) -> String {
        vector.result.rawValue + (vector.error.map { " (\($0))" } ?? "")
    }

    /// What one implementation answered, for the cases section.
    static func answerText(_ result: CaseResult) -> String {
        var parts = [Outcome(result).label]
        if let code = result.receivedCode { parts.append("code \(code)") }
        if let error = result.answer?.error, error != result.receivedCode { parts.append("error \"\(error.prefix(300))\"") }
        if result.grade == .error, !result.message.isEmpty { parts.append(String(result.message.prefix(300))) }
        return parts.joined(separator: ", ")
    }

    /// The checks an implementation's adapter does for its library (the hello's
    /// `callerChecks`), `—` for none: the library is judged as documented.
    static func callerChecksCell(_ column: Column) -> String {
        guard let checks = column.report.callerChecks, !checks.isEmpty else { return "—" }
        return checks.joined(separator: ", ")
    }

    func capabilitiesMarkdown() -> [String] {
        var lines = [
            "## Capabilities", "",
            "Declared in each adapter's hello; `—`: none declared, every vector of its families is sent. "
                + "Caller checks: what the adapter checks itself because the library's documentation leaves it to the caller.", "",
            "| implementation | reasons graded | caller checks | " + capabilityNames.map(MarkdownText.cell).joined(separator: " | ") + " |",
            "|---|---|---|" + capabilityNames.map { _ in "---|" }.joined(),
        ]
        for column in columns {
            let checks = column.report.callerChecks?.isEmpty == false ? MarkdownText.cell(Self.callerChecksCell(column)) : "—"
            lines.append(
                "| \(MarkdownText.cell(column.name)) | \(column.report.gradesReasons ? "yes" : "no") | \(checks) | "
                    + capabilityCells(column).joined(separator: " | ") + " |")
        }
        return lines
    }

    func casesMarkdown() -> [String] {
        var lines = [
            "## Cases not passed", "",
            "Each with its input (strings over \(CaseInput.maxShownCharacters) characters shortened, with their SHA-256).",
        ]
        for row in findingRows {
            lines += [
                "", "### \(row.vector.id)", "",
                "`\(row.vector.file)` tcId \(row.vector.tcId); expected \(Self.expectedText(row.vector)).", "",
            ]
            for (column, result) in zip(columns, row.results) where result.grade.isFinding {
                lines.append("- \(MarkdownText.code(column.name)): \(MarkdownText.code(Self.answerText(result)))")
            }
            lines += ["", "```json", CaseInput.shown(row.vector.input).jsonText, "```"]
        }
        return lines
    }

    func capabilitiesHTML() -> String {
        let e = XMLText.attribute
        var page =
            "<h2>Capabilities</h2>\n<p>Declared in each adapter's hello; — none declared, every vector of its families is sent.</p>\n"
        page +=
            "<table><tr><th>implementation</th><th>reasons graded</th><th>caller checks</th>"
            + capabilityNames.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
        for column in columns {
            page +=
                "<tr><td>\(e(column.name))</td><td>\(column.report.gradesReasons ? "yes" : "no")</td>"
                + "<td>\(e(Self.callerChecksCell(column)))</td>"
                + capabilityCells(column).map { "<td>\(e($0))</td>" }.joined() + "</tr>\n"
        }
        return page + "</table>\n"
    }

    func casesHTML() -> String {
        let e = XMLText.attribute
        var page = "<h2>Cases not passed</h2>\n"
        for row in findingRows {
            page += "<details><summary>\(e(row.vector.id)) — expected \(e(Self.expectedText(row.vector)))</summary>\n"
            page += "<p><code>\(e(row.vector.file))</code> tcId \(row.vector.tcId)</p><ul>\n"
            for (column, result) in zip(columns, row.results) where result.grade.isFinding {
                page += "<li>\(e(column.name)): \(e(Self.answerText(result)))</li>\n"
            }
            page += "</ul><pre>\(XMLText.text(CaseInput.shown(row.vector.input).jsonText))</pre></details>\n"
        }
        return page
    }
}
