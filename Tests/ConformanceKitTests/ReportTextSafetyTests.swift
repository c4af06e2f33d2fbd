@testable import ConformanceKit
import ConformanceReports
import VectorContract
import Foundation
import Testing
import TrustSuiteSupport

/// Reports that parse and render safely whatever an adapter says (issue 44
/// item 6): JUnit stays well-formed XML 1.0, Markdown renders only what the
/// suite wrote, and bidirectional controls do not reach the terminal.
@Suite struct ReportTextSafetyTests {
    /// Adapter text with everything the audit used: XML 1.0's forbidden
    /// U+FFFE and U+FFFF, ESC sequences, CR, NUL, HTML, a Markdown image and
    /// link, an autolink, a table pipe, backticks and a right-to-left override.
    static let hostile =
        "x\u{FFFE}\u{FFFF}\u{1B}[2J\r\u{0} <img src=x onerror=alert(1)> ![i](http://e.test/i.png) "
        + "[l](http://e.test) https://e.test | ``tick`` \u{202E}txt.exe"

    static func matrix() -> Matrix {
        let vector = CodesAdapter.vector(2, "ff", .invalid, error: "unexpectedBreak", id: "a::2")
        let reference = RunReport(
            subject: "reference",
            cases: [
                CaseResult(vector: vector, grade: .pass, answer: SubjectAnswer(.invalid), message: "", seconds: 0)
            ], seconds: 0)
        var report = RunReport(
            subject: hostile,
            cases: [
                CaseResult(vector: vector, grade: .fail, answer: SubjectAnswer(.valid, error: hostile), message: hostile, seconds: 0)
            ], seconds: 0)
        report.capabilities = [hostile]
        report.callerChecks = [hostile]
        return Matrix(columns: [
            .init(name: "reference", command: nil, report: reference), .init(name: hostile, command: "x", report: report),
        ])
    }

    /// Every character of the JUnit report is one XML 1.0 allows
    /// (`Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`).
    @Test func junitHoldsOnlyXMLCharacters() {
        let vector = CodesAdapter.vector(2, "ff", .invalid, error: "unexpectedBreak", id: "a::2")
        let result = CaseResult(vector: vector, grade: .error, answer: nil, message: Self.hostile, seconds: 0, stderr: Self.hostile)
        let xml = Reports.junit(RunReport(subject: Self.hostile, cases: [result], seconds: 0))
        let forbidden = xml.unicodeScalars.filter { scalar in
            let value = scalar.value
            return
                !(value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || value >= 0x10000)
        }
        #expect(forbidden.isEmpty, "\(forbidden.map { String($0.value, radix: 16) })")
        #expect(xml.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }

    /// Outside code spans the Markdown holds nothing adapter-made that
    /// renders: no tag, image, link, control character; adapter text is in
    /// code spans whole.
    @Test func markdownRendersOnlyTheSuitesText() {
        let markdown = Self.matrix().markdown(command: "trustsuite matrix")
        let outside = Self.outsideCodeSpans(markdown)
        for needle in ["<img", "![i]", "](http", "https://e.test", "\u{1B}", "\r", "\u{0}", "\u{202E}", "\u{FFFE}"] {
            #expect(!outside.contains(needle), "\(needle.debugDescription) outside a code span")
        }
        #expect(!markdown.contains("\u{1B}") && !markdown.contains("\r") && !markdown.contains("\u{202E}"))
        #expect(markdown.contains(MarkdownText.cell(Self.hostile)))
        // The summary the matrix prints on the terminal too.
        let summary = Self.matrix().summaryMarkdown().joined(separator: "\n")
        #expect(!summary.contains("\u{1B}") && !summary.contains("\u{202E}") && !Self.outsideCodeSpans(summary).contains("<img"))
    }

    @Test func codeSpansSurviveBackticksAndPipes() {
        #expect(MarkdownText.code("cbor2 5.6.5") == "cbor2 5.6.5")
        #expect(MarkdownText.code("keyId, counter") == "keyId, counter")
        #expect(MarkdownText.code("www.e.test") == "`www.e.test`")
        #expect(MarkdownText.code("a_b*c") == "`a_b*c`")
        #expect(MarkdownText.code("a ``b`` c") == "```a ``b`` c```")
        #expect(MarkdownText.code("`x") == "`` `x ``")
        #expect(MarkdownText.cell("a|b") == "`a\\|b`")
        #expect(MarkdownText.code("") == "")
    }

    /// The baseline comparison `matrix --baseline` prints names each
    /// implementation escaped for the terminal.
    @Test func baselineLinesEscapeNames() throws {
        let vector = CodesAdapter.vector(2, "ff", .invalid, error: "unexpectedBreak", id: "a::2")
        func matrix(_ grade: Grade) -> Matrix {
            let report = RunReport(
                subject: "x",
                cases: [
                    CaseResult(
                        vector: vector, grade: grade, answer: SubjectAnswer(grade == .pass ? .invalid : .valid), message: "", seconds: 0)
                ], seconds: 0)
            return Matrix(columns: [.init(name: Self.hostile, command: "x", report: report)])
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(matrix(.pass).json(command: "old").utf8).write(to: url)
        let lines = try MatrixBaseline.load(url.path, against: matrix(.fail)).lines(path: "old.json").joined(separator: "\n")
        #expect(lines.contains(TerminalText.escape(Self.hostile)), "\(lines)")
        #expect(!lines.contains("\u{1B}") && !lines.contains("\r") && !lines.contains("\u{202E}"))
    }

    /// U+202E and the other bidirectional controls are shown, not obeyed.
    @Test func bidiControlsAreEscapedForTheTerminal() {
        #expect(TerminalText.escape("a\u{202E}b\u{2066}c\u{200F}d\u{2028}e") == "a\\u{202E}b\\u{2066}c\\u{200F}d\\u{2028}e")
    }

    /// The text outside GitHub code spans (a run of N backticks up to the next run of exactly N).
    static func outsideCodeSpans(_ text: String) -> String {
        var out = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else {
                out.append(characters[index])
                index += 1
                continue
            }
            var run = 0
            while index + run < characters.count, characters[index + run] == "`" { run += 1 }
            var search = index + run, closed: Int? = nil
            while search < characters.count {
                if characters[search] == "`" {
                    var other = 0
                    while search + other < characters.count, characters[search + other] == "`" { other += 1 }
                    if other == run { closed = search + other; break }
                    search += other
                } else {
                    search += 1
                }
            }
            guard let end = closed else {
                out += String(characters[index...])
                break
            }
            index = end
        }
        return out
    }
}
