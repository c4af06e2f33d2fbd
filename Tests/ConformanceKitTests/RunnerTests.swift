import ConformanceKit
import VectorContract
import Foundation
import Testing
import TrustSuiteSupport

/// A scripted subject: answers from a table keyed by the input's `cborHex`.
struct ScriptedSubject: Subject {
    let answers: [String: SubjectAnswer]
    var name: String { "scripted" }
    var gradesErrorCodes: Bool
    var families: Set<Family> { [.cbor, .laRight] }

    struct Boom: Error {}

    func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        guard let key = input["cborHex"]?.stringValue, let answer = answers[key] else { throw Boom() }
        return answer
    }
}

@Suite struct RunnerTests {
    static func vector(
        _ tcId: Int, _ hex: String, _ result: ExpectedResult, error: String? = nil,
        output: JSONValue? = nil, family: Family = .cbor, flags: [String] = []
    ) -> Vector {
        Vector(
            family: family, file: "f.json", tcId: tcId, id: "cbor-t::\(tcId)", comment: "", flags: flags,
            input: .object(["cborHex": .string(hex)]), result: result, error: error, output: output)
    }

    static let vectors = [
        vector(1, "00", .valid, output: .object(["diagnostic": .string("0")])),
        vector(2, "ff", .invalid, error: "unexpectedBreak"),
        vector(3, "1c", .invalid, error: "reservedAdditionalInfo"),
        vector(4, "f818", .acceptable, flags: ["Legacy"]),
        vector(5, "crash", .valid),
        vector(6, "01", .valid, output: .object(["diagnostic": .string("1")])),
        vector(
            7, "trace", .valid, output: .object(["steps": .array([.object(["state": .string("authorized")])])]),
            family: .laRight),
        vector(8, "skip", .valid, family: .keychainACL),
    ]

    static let answers: [String: SubjectAnswer] = [
        "00": SubjectAnswer(.valid, output: .object(["diagnostic": .string("0")])),
        "ff": SubjectAnswer(.valid),  // accepted invalid input
        "1c": SubjectAnswer(.invalid, error: "truncated"),  // right verdict, wrong code
        "f818": SubjectAnswer(.invalid, error: "x"),
        "01": SubjectAnswer(.valid, output: .object(["diagnostic": .string("2")])),
        "trace": SubjectAnswer(.valid, output: .object(["steps": .array([.object(["state": .string("unknown")])])])),
    ]

    @Test func gradesReferenceStrictly() async throws {
        let report = await Runner(subject: ScriptedSubject(answers: Self.answers, gradesErrorCodes: true)).run(Self.vectors)
        let grades = report.cases.map(\.grade)
        // The wrong code of tcId 3 is a wrong reason: neither pass nor fail.
        #expect(grades == [.pass, .fail, .wrongReason, .pass, .error, .fail, .fail, .unsupported])
        #expect(report.cases[2].receivedCode == "truncated" && report.cases[2].expectedCode == "reservedAdditionalInfo")
        #expect(report.cases[1].acceptedInvalid)
        #expect(report.cases[6].message.contains("steps[0].state"))
        #expect(report.exitCode == 1)
    }

    @Test func thirdPartiesAreGradedOnVerdictOnly() async {
        let report = await Runner(subject: ScriptedSubject(answers: Self.answers, gradesErrorCodes: false)).run(Self.vectors)
        #expect(report.cases[2].grade == .pass)  // wrong code is shown, not graded
        #expect(report.cases[5].grade == .pass)  // outputs are shown, not graded, without "gradeOutputs"
        #expect(report.cases[1].grade == .fail)  // an accepted invalid input always fails
    }

    @Test func reportsListDangerousFailuresFirst() async throws {
        let report = await Runner(subject: ScriptedSubject(answers: Self.answers, gradesErrorCodes: true)).run(Self.vectors)
        let text = Reports.scorecard(report)
        let firstProblem = try #require(text.split(separator: "\n").first { $0.contains(" fail]") || $0.contains(" error]") })
        #expect(firstProblem.hasPrefix("!! "))
        #expect(text.contains("FAIL: 2 passed, 3 failed (1 accepted invalid input), 1 wrong reason, 1 unsupported, 1 errors"))

        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(report).utf8))
        #expect(json["summary"]?["total"]?.int64Value == 8)
        // The crash on a cbor input (network) is critical, before the accepted invalid input (high).
        #expect(json["cases"]?.arrayValue?.first?["severity"]?.stringValue == "critical")
        #expect(json["cases"]?.arrayValue?.dropFirst().first?["acceptedInvalid"]?.boolValue == true)

        let xml = Reports.junit(report)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 8)
        #expect(xml.contains("<failure type=\"acceptedInvalid\""))
        #expect(xml.contains("<skipped "))
        #expect(xml.contains("<error "))
    }

    @Test func allPassingRunExitsZero() async {
        let report = await Runner(subject: ScriptedSubject(answers: Self.answers, gradesErrorCodes: true))
            .run([Self.vectors[0]])
        #expect(report.exitCode == 0)
    }
}

/// The reports' shape for third parties: accepted-invalid counted apart,
/// cbor broken down by mode, the JSON lists failures and errors before
/// passes and unsupported cases, JUnit carries the adapter's reasons and
/// each case's stderr.
@Suite struct ReportShapeTests {
    static func vector(_ tcId: Int, mode: String, _ result: ExpectedResult) -> Vector {
        Vector(
            family: .cbor, file: "f.json", tcId: tcId, id: "r::\(tcId)", comment: "", flags: [],
            input: .object(["cborHex": .string("00"), "mode": .string(mode)]), result: result,
            error: result == .invalid ? "truncated" : nil, output: nil)
    }

    static let report = RunReport(
        subject: "third",
        cases: [
            CaseResult(vector: vector(1, mode: "wellFormed", .valid), grade: .pass, answer: SubjectAnswer(.valid), message: "", seconds: 0),
            CaseResult(
                vector: vector(2, mode: "ctap2", .valid), grade: .unsupported,
                answer: SubjectAnswer(.unsupported, error: "no ctap2 mode here"), message: "subject does not support this case", seconds: 0),
            CaseResult(
                vector: vector(3, mode: "ctap2", .invalid), grade: .fail, answer: SubjectAnswer(.valid),
                message: "accepted an invalid input", seconds: 0, stderr: "warning: lenient\n"),
            CaseResult(
                vector: vector(4, mode: "deterministic", .valid), grade: .error, answer: nil,
                message: "adapter crashed: it exited with status 3", seconds: 0, stderr: "Traceback <here>\n"),
        ], seconds: 1)

    @Test func scorecardCountsAcceptedInvalidAndModes() {
        let text = Reports.scorecard(Self.report)
        #expect(text.contains("accInv"))
        let ctap2 = text.split(separator: "\n").first { $0.hasPrefix("  cbor ctap2") }
        // total 2, pass 0, fail 1, accInv 1, wrongR 0, unsup 1, error 0, crit 0
        #expect(ctap2?.split(separator: " ").suffix(8) == ["2", "0", "1", "1", "0", "1", "0", "0"])
        // The crash on a cbor input (a network input) is critical, in its own column and listed first.
        let deterministic = text.split(separator: "\n").first { $0.hasPrefix("  cbor deterministic") }
        #expect(deterministic?.split(separator: " ").suffix(2) == ["1", "1"])
        let listed = text.split(separator: "\n").filter { $0.contains("[critical") || $0.contains("[high") }
        #expect(listed.first?.contains("r::4") == true && listed.count == 2)
    }

    @Test func jsonOrdersProblemsThenPassesThenUnsupported() throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(Self.report).utf8))
        // Findings by severity: the crash (critical) before the accepted invalid input (high).
        #expect(json["cases"]?.arrayValue?.map { $0["tcId"]?.int64Value } == [4, 3, 1, 2])
        #expect(json["cases"]?.arrayValue?.first?["severity"]?.stringValue == "critical")
        #expect(json["summary"]?["critical"]?.int64Value == 1)
        #expect(json["families"]?["cbor"]?["acceptedInvalid"]?.int64Value == 1)
        #expect(json["families"]?["cbor"]?["parts"]?["ctap2"]?["unsupported"]?.int64Value == 1)
        #expect(json["cases"]?.arrayValue?[1]["stderr"]?.stringValue == "warning: lenient\n")
    }

    @Test func junitCarriesReasonsAndStderr() {
        let xml = Reports.junit(Self.report)
        #expect(xml.contains("<skipped message=\"no ctap2 mode here\"/>"))
        #expect(xml.contains("<system-err>Traceback &lt;here&gt;\n</system-err>"))
        #expect(xml.contains("<failure type=\"acceptedInvalid\""))
    }
}
