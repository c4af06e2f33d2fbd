import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TrustSuiteSupport

/// Issue 44, item 9: adapter-list names, `--expected` globs over critical
/// findings, and the cost of matching an expected-failures file.
@Suite struct GateInputTests {
    /// A list whose only entry (besides a plain one) is named `name`.
    static func load(names: [String]) throws -> AdapterList {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let entries: [JSONValue] = names.map { name in
            .object([
                "name": .string(name), "language": .string("test"), "library": .string("x"), "version": .string("1"),
                "command": .string("true"), "families": .array([.string("cbor")]),
            ])
        }
        let list = folder.appendingPathComponent("adapters.json")
        try Data(JSONValue.object(["schema": .string("trustsuite-adapters/1"), "adapters": .array(entries)]).jsonText.utf8).write(
            to: list)
        return try AdapterList.load(path: list.path)
    }

    /// A name is the adapter's folder beside the list (its error map): one
    /// that is not a plain name (`../outside` read outside the list's
    /// folder) is refused, and so are invisible characters (two names
    /// differing by a zero-width space were both accepted).
    @Test(arguments: [
        ["../outside"], ["a/b"], [".."], ["."], [".hidden"], ["/etc"], ["yes", "yes\u{200B}"], ["yes\u{200B}"], ["x\u{202E}y"],
        ["tab\there"], ["two words"], ["Yes", "yes"], [String(repeating: "a", count: 65)],
    ])
    func adapterListNamesArePlain(_ names: [String]) throws {
        #expect(throws: VectorLoadError.self) { _ = try Self.load(names: names) }
        do {
            _ = try Self.load(names: names)
        } catch {
            let text = String(describing: error)
            #expect(text.contains("plain name") || text.contains("used twice"), "\(text)")
            #expect(!text.contains("\u{200B}") && !text.contains("\u{202E}"), "\(text)")
        }
    }

    @Test func plainNamesAreAccepted() throws {
        let list = try Self.load(names: ["cbor2", "node-cbor", "py.webauthn_2", "a+b"])
        #expect(list.entries.map(\.name) == ["cbor2", "node-cbor", "py.webauthn_2", "a+b"])
        #expect(AdapterList.invisibleCharacter(in: "plain name") == nil)
        #expect(AdapterList.invisibleCharacter(in: "yes\u{200B}") == "\u{200B}")
    }

    /// `{"*": …}` silenced every critical finding (a crash, hang or silence
    /// on a network input): a glob never covers one, only its own id does,
    /// and the run says so.
    @Test func aGlobDoesNotCoverACriticalFinding() throws {
        let report = ContractTests.mixed
        let critical = report.cases.filter(\.critical).map(\.vector.id)
        #expect(critical == ["b::1"])
        // a::2 (an accepted invalid input, below) is listed by its id here.
        let star = try ContractTests.expected(["*": "everything", "a::2": "accepts a stray break"]).check(report)
        #expect(star.unlisted.map(\.vector.id) == ["b::1"])
        #expect(star.globbedCritical.map(\.vector.id) == ["b::1"])
        #expect(star.exitCode(graded: report.graded) == 1)
        let lines = star.lines(path: "expected.json")
        #expect(lines.contains { $0.hasPrefix("warning:") && $0.contains("critical") && $0.contains("by its id") }, "\(lines)")
        let byId = try ContractTests.expected(["*": "everything", "b::1": "crashes", "a::2": "accepts a stray break"]).check(report)
        #expect(byId.unlisted.isEmpty && byId.globbedCritical.isEmpty && byId.exitCode(graded: report.graded) == 0)
        #expect(!byId.lines(path: "expected.json").contains { $0.hasPrefix("warning:") })
    }

    /// `{"*": …}` listed every accepted invalid input too, with exit 0
    /// (issue 52, item 7): a glob never covers one either; its own id does.
    @Test func aGlobDoesNotCoverAnAcceptedInvalidInput() throws {
        let report = ContractTests.mixed
        #expect(report.cases.filter(\.acceptedInvalid).map(\.vector.id) == ["a::2"])
        let star = try ContractTests.expected(["*": "everything", "b::1": "crashes"]).check(report)
        #expect(star.unlisted.map(\.vector.id) == ["a::2"])
        #expect(star.globbedCritical.map(\.vector.id) == ["a::2"])
        #expect(star.exitCode(graded: report.graded) == 1)
        let lines = star.lines(path: "expected.json")
        #expect(lines.contains { $0.hasPrefix("warning:") && $0.contains("accepting an invalid input") }, "\(lines)")
        #expect(lines.contains { $0.contains("a::2 (accepted invalid: a glob does not cover it)") }, "\(lines)")
        // The wrong reason a::3 is still covered by the glob.
        #expect(star.listed.map(\.vector.id).contains("a::3"))
        let byId = try ContractTests.expected(["*": "everything", "b::1": "crashes", "a::2": "accepts a stray break"]).check(report)
        #expect(byId.unlisted.isEmpty && byId.globbedCritical.isEmpty && byId.exitCode(graded: report.graded) == 0)
    }

    /// Matching an expected-failures file cost entries × vectors: 3,000
    /// listed ids against 3,000 findings took seconds; ids are looked up.
    /// Counted, not timed: only the one glob is tried on each finding.
    @Test func expectedFileMatchingIsIndexed() throws {
        let count = 3000
        let cases = (0..<count).map { index in
            CaseResult(
                vector: CodesAdapter.vector(index, "ff", .invalid, error: "unexpectedBreak", id: "big::\(index)"), grade: .fail,
                answer: SubjectAnswer(.valid), message: "accepted", seconds: 0)
        }
        let report = RunReport(subject: "third", cases: cases, seconds: 0)
        var entries = Dictionary(uniqueKeysWithValues: (0..<count).map { ("big::\($0)", "accepts it") })
        entries["other::*"] = "another family"
        let expected = try ContractTests.expected(entries)
        let verdict = expected.check(report)
        #expect(verdict.listed.count == count && verdict.unlisted.isEmpty && verdict.stale.isEmpty)
        #expect(verdict.notRun.map(\.pattern) == ["other::*"])
        #expect(verdict.patternTries == count, "\(verdict.patternTries) pattern matches for \(count) findings")
    }
}
