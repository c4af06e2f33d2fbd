import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// The matrix as one self-contained HTML page, for a person deciding which
/// implementation to trust (issue 28): an overview grid, implementation by
/// family or cbor mode, each cell coloured by its worst outcome and giving
/// the accepted-invalid count; then one section per implementation listing
/// what it gets wrong, grouped by flag with each flag's note and each
/// vector's input; then the vector table with filters (family, disagreement,
/// id), which also read the page address's fragment
/// (`#family=cbor&disagree=1&text=tag`) so a filtered view can be linked.
extension Matrix {
    /// One cell of the overview grid.
    struct GridCell {
        /// Vectors the implementation answered (not `unsupported`).
        let answered: Int
        let passed: Int
        let acceptedInvalid: Int
        /// The outcome that colours the cell: the worst one present.
        let worst: Outcome?

        init(_ cases: [CaseResult]) {
            let outcomes = cases.map(Outcome.init).filter { $0 != .unsupported }
            answered = outcomes.count
            passed = outcomes.filter { $0 == .pass }.count
            acceptedInvalid = outcomes.filter { $0 == .acceptedInvalid }.count
            worst = GridCell.severity.first(where: outcomes.contains)
        }

        /// Worst first, as docs/vectors.md ranks findings: a crash, hang or
        /// silence on a `network` input, an accepted invalid vector, another
        /// error, a refused valid one, a wrong reason.
        static let severity: [Outcome] = [.critical, .acceptedInvalid, .error, .rejectedValid, .wrongAnswer, .wrongReason, .pass]
    }

    /// The grid's columns: each family, or each of its modes when it has
    /// some (cbor), in the scorecard's order over every vector run.
    var gridLabels: [String] {
        guard let first = columns.first else { return [] }
        return Reports.rows(first.report.cases).flatMap { family, parts in parts.isEmpty ? [family.label] : parts.map(\.label) }
    }

    /// Each grid label's cases for one column.
    func gridCases(_ column: Column) -> [String: [CaseResult]] {
        var cases: [String: [CaseResult]] = [:]
        for (family, parts) in Reports.rows(column.report.cases) {
            for row in parts.isEmpty ? [family] : parts { cases[row.label] = row.cases }
        }
        return cases
    }

    /// An HTML id for a column's section.
    static func anchor(_ index: Int) -> String { "impl-\(index)" }

    public func html(command: String, files: [VectorFile] = []) -> String {
        let e = XMLText.attribute
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>TrustSuite results matrix</title>
            <style>
            body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:1em 0}
            td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}th{background:#eee}
            #rows th{position:sticky;top:2.4em}
            .pass{background:#dff0df}.acceptedInvalid{background:#f2a7a7;font-weight:bold}
            .rejectedValid,.wrongAnswer{background:#f8d5b4}.wrongReason{background:#f3ead0}
            .unsupported,.unclaimed{color:#999;background:#fafafa}.error{background:#eed77a}
            .critical{background:#b00;color:#fff;font-weight:bold}
            pre{white-space:pre-wrap;word-break:break-all;margin:0;font-size:12px}
            #grid td.cell{text-align:center;min-width:5.5em}#grid td.cell a{color:inherit;text-decoration:none;display:block}
            #grid small{display:block;font-weight:normal}.meta{color:#555}
            .num{text-align:right}#filters{position:sticky;top:0;background:#fff;padding:.5em 0;z-index:1}
            details{margin:.3em 0}summary{cursor:pointer}section{margin:1.5em 0}
            </style></head><body>
            <h1>TrustSuite results matrix</h1>
            <p>Made by <code>\(e(command))</code>. \(rows.count) vectors, \(rows.filter(\.disagreement).count) where
            implementations disagree; \(columns.count) implementations.</p>

            """
        if let source = vectorSource {
            page +=
                "<p class=\"meta\" id=\"vector-source\">Vectors: "
                + source.origins.map { "<code>\(e($0))</code>" }.joined(separator: "; ")
                + " — \(source.filesText), sha256 <code>\(source.sha256)</code></p>\n"
        }
        page += gridHTML() + summaryHTML() + capabilitiesHTML() + implementationsHTML(files: files)
        page += "<h2 id=\"vectors\">Vectors</h2>\n<div id=\"filters\">Family <select id=\"family\"><option value=\"\">all</option>"
        page += families.map { "<option>\($0.rawValue)</option>" }.joined()
        page += "</select> <label><input type=\"checkbox\" id=\"disagree\"> only disagreements</label>"
        page += " <input id=\"text\" placeholder=\"filter by id\"> <span id=\"shown\"></span></div>\n"
        page += "<table id=\"rows\"><thead><tr><th>vector</th><th>family</th><th>expected</th>"
        page += columns.map { "<th>\(e($0.name))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in rows {
            page += "<tr data-family=\"\(row.vector.family.rawValue)\" data-disagree=\"\(row.disagreement ? 1 : 0)\">"
            page += "<td title=\"\(e(row.vector.comment))\">\(e(row.vector.id))</td><td>\(row.vector.family.rawValue)</td>"
            page += "<td>\(e(Self.expectedText(row.vector)))</td>"
            for result in row.results {
                let outcome = Outcome(result)
                let detail = [result.answer?.error, result.message.isEmpty ? nil : result.message].compactMap { $0 }.joined(
                    separator: " — ")
                page += "<td class=\"\(outcome.rawValue)\" title=\"\(e(detail))\">\(e(outcome.label))</td>"
            }
            page += "</tr>\n"
        }
        page += "</tbody></table>\n" + casesHTML() + Self.filterScript + "</body></html>\n"
        return page
    }

    /// The overview: a row per implementation with its language, library and
    /// version; a cell per family or mode it claims, blank where it answered
    /// none of its vectors.
    func gridHTML() -> String {
        let e = XMLText.attribute
        let labels = gridLabels
        var page =
            "<h2>Overview</h2>\n<p>Each cell: vectors passed of those answered, coloured by the worst outcome "
            + "(dark red: a crash, hang or no answer on an input an attacker can send; red: an invalid vector accepted; yellow: another error; orange: a valid vector refused or a wrong answer; "
            + "beige: refused for another reason). Blank: a family or mode the implementation does not claim. "
            + "A cell links to the implementation's findings.</p>\n"
        page +=
            "<table id=\"grid\"><thead><tr><th>implementation</th><th>language</th><th>library</th>"
            + labels.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for (index, column) in columns.enumerated() {
            let cases = gridCases(column)
            let details = column.implementation
            page += "<tr data-implementation=\"\(e(column.name))\"><th><a href=\"#\(Self.anchor(index))\">\(e(column.name))</a></th>"
            page += "<td>\(e(details?.language ?? (index == 0 ? "Swift" : "")))</td>"
            page += "<td>\(e(details.map { "\($0.library) \($0.version)" } ?? (index == 0 ? "TrustSuite reference" : "")))</td>"
            for label in labels {
                let cell = GridCell(cases[label] ?? [])
                guard let worst = cell.worst else {
                    page += "<td class=\"cell unclaimed\" data-label=\"\(e(label))\"></td>"
                    continue
                }
                var text = "\(cell.passed)/\(cell.answered)"
                if cell.acceptedInvalid > 0 { text += "<small>\(cell.acceptedInvalid) accepted invalid</small>" }
                page +=
                    "<td class=\"cell \(worst.rawValue)\" data-label=\"\(e(label))\" data-accepted-invalid=\"\(cell.acceptedInvalid)\">"
                    + "<a href=\"#\(Self.anchor(index))\">\(text)</a></td>"
            }
            page += "</tr>\n"
        }
        return page + "</tbody></table>\n"
    }

    /// The summary counts per implementation and claimed family or mode, folded away.
    func summaryHTML() -> String {
        let e = XMLText.attribute
        var page =
            "<details><summary>Counts per implementation and family</summary>\n"
            + "<table><tr><th>implementation</th><th>family</th><th>vectors</th>"
            + Outcome.allCases.map { "<th>\(e($0.label.lowercased()))</th>" }.joined() + "</tr>\n"
        for (index, column) in columns.enumerated() {
            for (label, counts) in summary(column: index) {
                page +=
                    "<tr><td>\(e(column.name))</td><td>\(e(label))</td>"
                    + "<td class=\"num\">\(counts.values.reduce(0, +))</td>"
                    + Outcome.allCases.map { "<td class=\"num\">\(counts[$0] ?? 0)</td>" }.joined() + "</tr>\n"
            }
        }
        return page + "</table></details>\n"
    }

    /// One section per implementation: what it gets wrong, grouped by flag
    /// (a vector under each of its flags), the groups holding an accepted
    /// invalid vector first, each with its flag's note and every vector's
    /// input, as a report upstream would need it.
    func implementationsHTML(files: [VectorFile]) -> String {
        let e = XMLText.attribute
        let notes = Dictionary(files.map { ($0.path, $0.flagNotes) }, uniquingKeysWith: { first, _ in first })
        var page = "<h2>Findings per implementation</h2>\n"
        for (index, column) in columns.enumerated() {
            let findings = rows.compactMap { row -> (Vector, CaseResult)? in
                let result = row.results[index]
                return result.grade.isFinding ? (row.vector, result) : nil
            }
            var groups: [String: [(Vector, CaseResult)]] = [:]
            for finding in findings {
                for flag in finding.0.flags.isEmpty ? ["(no flag)"] : finding.0.flags { groups[flag, default: []].append(finding) }
            }
            let ordered = groups.sorted { lhs, rhs in
                let (left, right) = (lhs.value.filter { $0.1.acceptedInvalid }.count, rhs.value.filter { $0.1.acceptedInvalid }.count)
                if (left > 0) != (right > 0) { return left > 0 }
                return lhs.value.count != rhs.value.count ? lhs.value.count > rhs.value.count : lhs.key < rhs.key
            }
            page += "<section id=\"\(Self.anchor(index))\" class=\"implementation\"><h3>\(e(column.name))</h3>\n"
            if let details = column.implementation {
                page +=
                    "<p class=\"meta\">\(e(details.language)) · \(e(details.library)) \(e(details.version))"
                    + (column.command.map { " · <code>\(e($0))</code>" } ?? "") + "</p>\n"
            }
            let accepted = findings.filter { $0.1.acceptedInvalid }.count
            page += "<p>\(findings.count) vectors not passed (\(accepted) invalid accepted) under \(groups.count) flags.</p>\n"
            for (flag, members) in ordered {
                let acceptedHere = members.filter { $0.1.acceptedInvalid }.count
                let note = members.lazy.compactMap { notes[$0.0.file]?[flag] }.first
                page +=
                    "<details class=\"flag\"><summary><b>\(e(flag))</b>\(note?.bugType.map { " (\(e($0)))" } ?? "")"
                    + " — \(members.count) vectors\(acceptedHere > 0 ? ", \(acceptedHere) invalid accepted" : "")</summary>\n"
                if let note { page += "<p>\(e(note.helpText))</p>\n" }
                page += "<table><tr><th>vector</th><th>expected</th><th>answered</th><th>input</th></tr>\n"
                for (vector, result) in members {
                    page +=
                        "<tr><td>\(e(vector.id))</td><td>\(e(Self.expectedText(vector)))</td>"
                        + "<td class=\"\(Outcome(result).rawValue)\">\(e(Self.answerText(result)))</td>"
                        + "<td><pre>\(XMLText.text(CaseInput.shown(vector.input).jsonText))</pre></td></tr>\n"
                }
                page += "</table></details>\n"
            }
            page += "</section>\n"
        }
        return page
    }

    /// The vector table's filters; the fragment of the address sets them
    /// on load and follows them, so a filtered view is a link.
    static let filterScript = """
        <script>
        const rows=[...document.querySelectorAll('#rows tbody tr')];
        const family=document.getElementById('family'),disagree=document.getElementById('disagree'),text=document.getElementById('text');
        function apply(){const f=family.value,d=disagree.checked,t=text.value.toLowerCase();let n=0;
        for(const r of rows){const show=(!f||r.dataset.family===f)&&(!d||r.dataset.disagree==='1')&&
        (!t||r.firstChild.textContent.toLowerCase().includes(t));r.style.display=show?'':'none';if(show)n++;}
        document.getElementById('shown').textContent=n+' of '+rows.length+' vectors';
        const p=new URLSearchParams();if(f)p.set('family',f);if(d)p.set('disagree','1');if(t)p.set('text',t);
        const h=p.toString();if(h!==location.hash.slice(1))try{history.replaceState(null,'',h?'#'+h:location.pathname+location.search);}catch(e){}}
        const start=new URLSearchParams(location.hash.slice(1));
        if(start.has('family'))family.value=start.get('family');disagree.checked=start.get('disagree')==='1';
        if(start.has('text'))text.value=start.get('text');
        for(const c of [family,disagree,text])c.addEventListener('input',apply);apply();
        </script>

        """
}
