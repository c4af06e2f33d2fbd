import AppAttest
import ConformanceKit
import VectorContract
import ReferenceSubjects
import Testing
import TestSupport
import TrustSuiteSupport

/// spec/app-attest.md, Amendments (round 3): without a policy no verdict
/// changes. Every attestation and assertion vector that sets no policy is
/// graded again with no policy and with an empty one, each as its own case;
/// the reference reads the policy inputs strictly.
@Suite struct LaunchPolicyVectorTests {
    /// The App Attest vectors whose input sets no launch policy (the old ones and the new malformed-data ones).
    static let withoutPolicy: [VectorCase] = [Family.appAttestAttestation, .appAttestAssertion].flatMap(FixtureVectors.cases)
        .filter { !$0.vector.flags.contains(LaunchPolicyFields.flag) }

    static func answer(_ vector: Vector, _ policy: LaunchPolicy?) async throws -> SubjectAnswer {
        switch vector.family {
        case .appAttestAttestation: try await AppAttestSubject.attestation(vector.input, launchPolicy: policy)
        default: try AppAttestSubject.assertion(vector.input, launchPolicy: policy)
        }
    }

    @Test func everyOldVectorIsCovered() {
        // attestation.json and assertion.json hold 186 vectors; the iOS 27 files add the malformed ones without a policy.
        #expect(Self.withoutPolicy.count >= 186)
    }

    @Test(arguments: withoutPolicy)
    func sameVerdictWithoutAndWithAnEmptyPolicy(_ testCase: VectorCase) async throws {
        let vector = testCase.vector
        for policy in [nil, LaunchPolicy()] {
            let answer = try await Self.answer(vector, policy)
            let (grade, message) = Grader.grade(vector, answer: answer, gradesErrorCodes: true, gradesOutputs: true)
            #expect(grade == .pass, "policy \(policy.map { "\($0)" } ?? "none"): \(message)")
        }
    }

    /// A policy input of the wrong type or value is an error of the vector, not a verdict.
    @Test(arguments: [
        ("allowedValidationCategories", JSONValue.string("1")), ("allowedValidationCategories", .array([.int(-1)])),
        ("allowedValidationCategories", .array([.double(1.5)])), ("allowedValidationCategories", .array([.int(4_294_967_296)])),
        ("minimumBundleVersion", .string("1.x")), ("minimumBundleVersion", .string("")), ("minimumBundleVersion", .int(1)),
        ("missingLaunchData", .string("Reject")), ("missingLaunchData", .bool(true)),
    ])
    func malformedPolicyInputsAreVectorErrors(_ field: (String, JSONValue)) async throws {
        let vector = try #require(FixtureVectors.cases(.appAttestAssertion).first { $0.vector.id == "assertion-baseline::first" }).vector
        guard case .object(var input) = vector.input else { return }
        input[field.0] = field.1
        #expect(throws: ReferenceInputError.self) {
            try ReferenceSubject().evaluateSynchronously(family: .appAttestAssertion, input: .object(input))
        }
    }
}
