import ConformanceKit
import ConformanceReports
import Foundation
import ReferenceSubjects
import Testing
import TestSupport
import TrustSuiteSupport
import VectorContract

/// The reason reaches the reader (issue 56, item 4): where a case did not
/// pass, the scorecard, the JSON and JUnit reports and SARIF's message show
/// the rule and reason the reference gave, and a passing case shows none.
@Suite struct ExplanationTests {
    static let lockedAdd = "keychain-flow-locked::add-ak-locked"

    /// The fixture vector, or one whose step 2 is made to expect success
    /// (the reference answers -25308 there: A6, the class is locked).
    static func vector(broken: Bool) throws -> Vector {
        let files = try FixtureVectors.loaded.get()
        let vector = try #require(files.flatMap(\.vectors).first { $0.id == lockedAdd })
        guard broken else { return vector }
        func expectingSuccess(_ steps: JSONValue?) -> JSONValue {
            var list = steps?.arrayValue ?? []
            if case .object(var step)? = list.dropFirst().first {
                if case .object(var expect)? = step["expect"] {
                    expect["status"] = .int(0)
                    step["expect"] = .object(expect)
                } else {
                    step["status"] = .int(0)
                }
                list[1] = .object(step)
            }
            return .array(list)
        }
        guard case .object(var input) = vector.input, case .object(var output)? = vector.output else {
            throw ReferenceInputError("the fixture is not a trace")
        }
        input["steps"] = expectingSuccess(input["steps"])
        output["steps"] = expectingSuccess(output["steps"])
        return Vector(
            family: vector.family, file: vector.file, tcId: vector.tcId, id: vector.id, comment: vector.comment, flags: vector.flags,
            input: .object(input), result: vector.result, error: vector.error, output: .object(output))
    }

    @Test func aFailingKeychainFlowCaseShowsItsRuleAndReason() async throws {
        let report = await Runner(subject: ReferenceSubject()).run([try Self.vector(broken: true)])
        let result = try #require(report.cases.first)
        #expect(result.grade == .fail)
        let why = "step 2 add → -25308: A6: the class ak is locked"
        let scorecard = Reports.scorecard(report)
        #expect(scorecard.contains("why: " + why), "\(scorecard)")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(report).utf8))
        let explanation = json["cases"]?.arrayValue?.first?["explanation"]?.stringValue ?? ""
        #expect(explanation.contains(why), "\(explanation)")
        #expect(Reports.junit(report).contains(why))
        #expect(result.finding().summary.contains("(why: step 1 "), "\(result.finding().summary)")
    }

    @Test func aPassingCaseShowsNoExplanation() async throws {
        let report = await Runner(subject: ReferenceSubject()).run([try Self.vector(broken: false)])
        #expect(report.cases.map(\.grade) == [.pass])
        #expect(report.cases.first?.explanation?.contains("A6: ") == true, "the answer carries it")
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(report).utf8))
        #expect(json["cases"]?.arrayValue?.first?["explanation"] == nil)
        #expect(!Reports.junit(report).contains("A6: "))
    }

    /// A keychain-acl refusal explains itself with the rule of the step that refused.
    @Test func aKeychainACLRefusalNamesItsRule() async throws {
        let input: JSONValue = .object([
            "protection": .string("ak"), "flags": .array([.string("biometryCurrentSet")]), "operation": .string("useItem"),
            "events": .array([.string("biometryEnrollmentChanged")]), "evidence": .array([.string("biometry")]),
        ])
        let answer = try await ReferenceSubject().evaluate(family: .keychainACL, input: input)
        #expect(answer.verdict == .invalid && answer.error == "authFailed")
        #expect(answer.explanation?.hasPrefix("AC6: ") == true, "\(answer.explanation ?? "none")")
    }
}
