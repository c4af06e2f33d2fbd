import ConformanceReports
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TrustSuiteSupport

/// Adapter text on the terminal (issue 22 item 6): the scorecard escapes
/// every control character an adapter sent (its version in the subject
/// name, its error text); the JSON report keeps the text exact and the
/// JUnit report keeps it as XML can carry it.
@Suite struct TerminalTextTests {
    /// Clear screen, a colour, a bell, a carriage return that would rewrite
    /// the line, an OSC window title, a C1 CSI and a line break.
    static let hostile = "boom\u{1B}[2J\u{1B}[31mred\u{7}\rPASS\u{1B}]0;owned\u{7}\u{9B}1m\nsecond line"

    static let report: RunReport = {
        let vector = Vector(
            family: .cbor, file: "f.json", tcId: 1, id: "t::1", comment: "", flags: [],
            input: .object(["cborHex": .string("00")]), result: .valid, error: nil, output: nil)
        return RunReport(
            subject: "evil 1.0\u{1B}[8m",
            cases: [
                CaseResult(vector: vector, grade: .error, answer: nil, message: hostile, seconds: 0, stderr: hostile)
            ], seconds: 0)
    }()

    @Test func scorecardShowsNoControlCharacter() {
        let text = Reports.scorecard(Self.report)
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) }
        #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) })")
        #expect(text.contains("subject: evil 1.0\\u{1B}[8m"))
        #expect(text.contains("boom\\u{1B}[2J\\u{1B}[31mred\\u{7}\\rPASS\\u{1B}]0;owned\\u{7}\\u{9B}1m\\nsecond line"))
        // The case is still one line of the scorecard.
        #expect(text.split(separator: "\n").filter { $0.contains("t::1") }.count == 1)
    }

    @Test func jsonAndJUnitKeepTheAdaptersText() throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(Self.report).utf8))
        #expect(json["subject"]?.stringValue == "evil 1.0\u{1B}[8m")
        #expect(json["cases"]?.arrayValue?.first?["message"]?.stringValue == Self.hostile)
        #expect(json["cases"]?.arrayValue?.first?["stderr"]?.stringValue == Self.hostile)
        // XML 1.0 cannot carry C0 controls (they are dropped there, as before);
        // everything else is the adapter's text, not the terminal's escapes.
        let xml = Reports.junit(Self.report)
        // A crash on a cbor input (a network input) is critical: its severity leads the message.
        #expect(xml.contains("<error type=\"critical\" message=\"critical: boom[2J[31mredPASS]0;owned\u{9B}1m&#10;second line\"/>"))
        #expect(xml.contains("<system-err>boom[2J[31mredPASS]0;owned\u{9B}1m\nsecond line</system-err>"))
        #expect(!xml.contains("\\u{"))
    }

    @Test func escapeKeepsPrintableText() {
        #expect(TerminalText.escape("plain ASCII, ünïcödé — and a\\backslash") == "plain ASCII, ünïcödé — and a\\backslash")
        #expect(TerminalText.escape("\u{0}\u{1F}\u{7F}\u{80}\u{9F}\u{A0}") == "\\u{0}\\u{1F}\\u{7F}\\u{80}\\u{9F}\u{A0}")
    }
}
