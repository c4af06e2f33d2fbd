import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport
import Testing
import TestSupport

/// An adapter that answers with codes (or, with `--map`, with error texts
/// that the error-map.json beside it maps), some of them wrong; with
/// `--caps a,b` it declares capabilities. Each request's cborHex goes to
/// stderr as `got HEX`, so a test sees what was sent.
enum CodesAdapter {
    static let script = """
        import sys, json
        args = sys.argv[1:]
        hello = {"adapter": "codes", "version": "1", "families": ["cbor"]}
        if "--map" not in args: hello["codes"] = True
        if "--caps" in args: hello["capabilities"] = args[args.index("--caps") + 1].split(",")
        print(json.dumps(hello), flush=True)
        # hex: (verdict, code, error text)
        table = {"ff": ("invalid", "unexpectedBreak", "stray break byte"),
                 "1c": ("invalid", "truncated", "premature end of data"),
                 "18": ("invalid", "truncated", "premature end of data"),
                 "f818": ("invalid", "nonMinimalEncoding", "bad simple value"),
                 "fe": ("valid", None, None)}
        for line in sys.stdin:
            req = json.loads(line)
            h = req["input"]["cborHex"]
            print("got " + h, file=sys.stderr, flush=True)
            verdict, code, text = table.get(h, ("valid", None, None))
            reply = {"id": req["id"], "result": verdict}
            if verdict == "invalid":
                reply["error"] = text
                if "--map" not in args: reply["code"] = code
            print(json.dumps(reply), flush=True)
        """

    /// Its error map: the text of 1c and 18 maps to `truncated`, that of f818 to the right code.
    static let errorMap = """
        [{"pattern": "stray break", "code": "unexpectedBreak"},
         {"pattern": "^premature end", "code": "truncated"},
         {"pattern": "simple", "code": "invalidSimpleValue"}]
        """

    /// A fresh folder holding the script, and its error map when `withMap`.
    static func install(withMap: Bool) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codes-adapter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(script.utf8).write(to: folder.appendingPathComponent("adapter.py"))
        if withMap { try Data(errorMap.utf8).write(to: folder.appendingPathComponent(ErrorMap.fileName)) }
        return folder
    }

    static func vector(
        _ tcId: Int, _ hex: String, _ result: ExpectedResult, error: String? = nil, mode: String = "wellFormed",
        tagValidity: Bool = false, id: String? = nil
    ) -> Vector {
        var input: [String: JSONValue] = ["cborHex": .string(hex), "mode": .string(mode)]
        if tagValidity { input["tagValidity"] = .bool(true) }
        return Vector(
            family: .cbor, file: "codes.json", tcId: tcId, id: id ?? "cbor-codes::\(tcId)", comment: "", flags: [],
            input: .object(input), result: result, error: error, output: nil, group: tcId > 3 ? 1 : 0,
            groupComment: tcId > 3 ? "second group" : "first group")
    }

    /// pass, pass, wrong code, right code, wrong code, accepted invalid.
    static let vectors = [
        vector(1, "00", .valid), vector(2, "ff", .invalid, error: "unexpectedBreak"),
        vector(3, "1c", .invalid, error: "reservedAdditionalInfo"), vector(4, "18", .invalid, error: "truncated"),
        vector(5, "f818", .invalid, error: "invalidSimpleValue"), vector(6, "fe", .invalid, error: "reservedAdditionalInfo"),
    ]
}

/// spec/vectors.md, Amendments (round 3): reasons are graded, capabilities
/// are honoured, known failures gate a run, matrices compare with a baseline.
@Suite(.serialized) struct ContractTests {
    @Test func anAdapterAnsweringCodesIsGradedWrongReasonForExactlyTheWrongOnes() async throws {
        let folder = try CodesAdapter.install(withMap: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let subject = try await AdapterSubject.launch(command: "exec python3 \(folder.path)/adapter.py")
        let report = await Runner(subject: subject).run(CodesAdapter.vectors)
        await subject.stop()
        #expect(subject.gradesReasons)
        #expect(report.cases.map(\.grade) == [.pass, .pass, .wrongReason, .pass, .wrongReason, .fail])
        #expect(report.cases[2].receivedCode == "truncated" && report.cases[2].expectedCode == "reservedAdditionalInfo")
        #expect(!report.cases[2].acceptedInvalid && report.cases[5].acceptedInvalid)
        #expect(report.exitCode == 1)
        let text = Reports.scorecard(report)
        #expect(text.contains("1 failed (1 accepted invalid input), 2 wrong reason"))
    }

    @Test func anErrorMapBesideTheScriptGradesReasons() async throws {
        let folder = try CodesAdapter.install(withMap: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let command = "exec python3 \(folder.path)/adapter.py --map"
        let path = try #require(ErrorMap.discover(command: command))
        let subject = try await AdapterSubject.launch(command: command, errorMap: try ErrorMap.load(path))
        let report = await Runner(subject: subject).run(CodesAdapter.vectors)
        await subject.stop()
        // The map gets f818 right; 1c's text maps to truncated, the wrong code.
        #expect(report.cases.map(\.grade) == [.pass, .pass, .wrongReason, .pass, .pass, .fail])

        // Without the map (a version-1 adapter) only verdicts are graded.
        let plain = try await AdapterSubject.launch(command: command)
        let verdictsOnly = await Runner(subject: plain).run(CodesAdapter.vectors)
        await plain.stop()
        #expect(!plain.gradesReasons)
        #expect(verdictsOnly.cases.map(\.grade) == [.pass, .pass, .pass, .pass, .pass, .fail])
    }

    @Test func aVectorNeedingAnUndeclaredCapabilityIsNotSent() async throws {
        let folder = try CodesAdapter.install(withMap: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let vectors = [
            CodesAdapter.vector(1, "00", .valid), CodesAdapter.vector(2, "01", .valid, mode: "ctap2"),
            CodesAdapter.vector(3, "02", .valid, tagValidity: true),
        ]
        let subject = try await AdapterSubject.launch(command: "exec python3 \(folder.path)/adapter.py --caps wellFormed,counter")
        let report = await Runner(subject: subject).run(vectors)
        await subject.stop()
        let sent = await subject.stderrText()
        #expect(report.cases.map(\.grade) == [.pass, .unsupported, .unsupported])
        #expect(report.cases[1].message.contains("ctap2") && report.cases[2].message.contains("tagValidity"))
        #expect(sent.contains("got 00") && !sent.contains("got 01") && !sent.contains("got 02"))
        #expect(report.capabilities == ["wellFormed", "counter"])
    }

    /// A report with a pass, a fail and a wrong reason in `a`, an error and a pass in `b`.
    static let mixed = RunReport(
        subject: "third",
        cases: [
            CaseResult(
                vector: CodesAdapter.vector(1, "00", .valid, id: "a::1"), grade: .pass, answer: SubjectAnswer(.valid), message: "",
                seconds: 0),
            CaseResult(
                vector: CodesAdapter.vector(2, "ff", .invalid, error: "unexpectedBreak", id: "a::2"), grade: .fail,
                answer: SubjectAnswer(.valid), message: "accepted", seconds: 0),
            CaseResult(
                vector: CodesAdapter.vector(3, "1c", .invalid, error: "reservedAdditionalInfo", id: "a::3"), grade: .wrongReason,
                answer: SubjectAnswer(.invalid, error: "premature end", code: "truncated"), message: "rejected with truncated", seconds: 0),
            CaseResult(
                vector: CodesAdapter.vector(4, "18", .invalid, error: "truncated", id: "b::1"), grade: .error, answer: nil,
                message: "adapter crashed", seconds: 0),
            CaseResult(
                vector: CodesAdapter.vector(5, "01", .valid, id: "b::2"), grade: .pass, answer: SubjectAnswer(.valid), message: "",
                seconds: 0),
        ], seconds: 0)

    static func expected(_ entries: [String: String]) throws -> ExpectedFailures {
        try ExpectedFailures.parse(try JSONEncoder().encode(entries), path: "expected.json")
    }

    @Test func expectedFailuresPassOnlyWhenCompleteAndCurrent() throws {
        // b::1 is critical (an error on a cbor input): only its own id lists it, never a glob.
        let complete = try Self.expected([
            "a::2": "accepts a stray break", "a::3": "no code for reserved info", "b::*": "crashes", "b::1": "crashes",
        ])
        let verdict = complete.check(Self.mixed)
        #expect(verdict.exitCode(graded: Self.mixed.graded) == 0)
        #expect(verdict.listed.count == 3 && verdict.unlisted.isEmpty && verdict.stale.isEmpty)

        let missing = try Self.expected(["a::2": "accepts a stray break", "b::*": "crashes", "b::1": "crashes"]).check(Self.mixed)
        #expect(missing.exitCode(graded: Self.mixed.graded) == 1)
        #expect(missing.unlisted.map(\.vector.id) == ["a::3"])

        let stale = try Self.expected(["a::1": "used to fail", "a::2": "x", "a::3": "y", "b::*": "z", "b::1": "z"]).check(Self.mixed)
        #expect(stale.exitCode(graded: Self.mixed.graded) == 1)
        #expect(stale.stale.map(\.entry.pattern) == ["a::1"])
        #expect(stale.lines(path: "expected.json").contains { $0.contains("stale: \"a::1\"") })

        // A glob whose vectors all pass is stale; one that matches nothing in this run is only noted.
        let glob = try Self.expected(["a::[23]": "x", "b::1": "y", "b::2*": "fixed", "zz::*": "other family"]).check(Self.mixed)
        #expect(glob.stale.map(\.entry.pattern) == ["b::2*"] && glob.notRun.map(\.pattern) == ["zz::*"])
    }

    static func matrix(_ second: [Grade]) -> Matrix {
        let reference = RunReport(
            subject: "reference",
            cases: Self.mixed.cases.map {
                CaseResult(vector: $0.vector, grade: .pass, answer: nil, message: "", seconds: 0)
            }, seconds: 0)
        let other = RunReport(
            subject: "other",
            cases: zip(Self.mixed.cases, second).map { result, grade in
                CaseResult(
                    vector: result.vector, grade: grade,
                    answer: grade == .fail ? SubjectAnswer(result.vector.result == .invalid ? .valid : .invalid) : nil,
                    message: "", seconds: 0)
            }, seconds: 0)
        return Matrix(columns: [
            .init(name: "reference", command: nil, report: reference), .init(name: "other", command: "x", report: other),
        ])
    }

    @Test func aBaselineNamesNewAndFixedDisagreementsAndWhatGotWorse() throws {
        let old = Self.matrix([.pass, .fail, .pass, .pass, .unsupported])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(old.json(command: "old").utf8).write(to: url)

        let better = try MatrixBaseline.load(url.path, against: Self.matrix([.pass, .pass, .pass, .pass, .pass]))
        #expect(!better.gotWorse && better.fixedDisagreements == ["a::2"] && better.newDisagreements.isEmpty)

        let worse = try MatrixBaseline.load(url.path, against: Self.matrix([.pass, .fail, .wrongReason, .pass, .unsupported]))
        #expect(worse.gotWorse)
        #expect(worse.newDisagreements == ["a::3"])
        #expect(
            worse.changes.map { "\($0.implementation) \($0.id) \($0.old)→\($0.new) \($0.worse)" } == ["other a::3 pass→wrongReason true"])
        #expect(worse.lines(path: "old.json").contains { $0.contains("WORSE a::3: pass → wrongReason") })
    }

    @Test func reportsCarryTheCaseInputAndCodes() throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(Self.mixed).utf8))
        let wrong = try #require(json["cases"]?.arrayValue?.first { $0["id"]?.stringValue == "a::3" })
        #expect(wrong["grade"]?.stringValue == "wrongReason")
        #expect(wrong["input"]?["cborHex"]?.stringValue == "1c")
        #expect(wrong["receivedCode"]?.stringValue == "truncated" && wrong["expectedError"]?.stringValue == "reservedAdditionalInfo")
        #expect(json["cases"]?.arrayValue?.first { $0["id"]?.stringValue == "a::1" }?["input"] == nil)
        #expect(json["summary"]?["wrongReason"]?.int64Value == 1)
        #expect(Reports.junit(Self.mixed).contains("<failure type=\"wrongReason\""))

        let matrix = Self.matrix([.pass, .fail, .wrongReason, .error, .pass])
        let markdown = matrix.markdown(command: "m")
        #expect(markdown.contains("## Cases not passed") && markdown.contains("\"cborHex\":\"1c\"") && markdown.contains("wrong reason"))
        #expect(matrix.html(command: "m").contains("<td class=\"wrongReason\""))
        #expect(matrix.html(command: "m").contains("&quot;cborHex&quot;:&quot;1c&quot;"))

        // Long strings are shortened with their SHA-256 (of "aaa…": 2,000 bytes of "a").
        let shown = CaseInput.shown(.object(["blob": .string(String(repeating: "a", count: 2000))]))
        #expect(
            shown["blob"]?.stringValue?.contains(
                "2000 bytes of text, SHA-256 of the text "
                    + "c4a700f85b7e9e5cdbdc51170409ee2ad48bebe2f2f0957a067937531a0a3c42") == true)
    }
}
