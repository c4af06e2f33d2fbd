import ConformanceKit
import Foundation
import ReferenceSubjects
import Testing
import TrustSuiteSupport
import TrustSuiteTesting
import VectorContract

/// Two implementations graded by one test (issue 61, item 1): the
/// reference, and a decoder that accepts everything. In the isolated child
/// the first check to arrive used to answer every vector of the test, so
/// one of the two was graded with the other's answers (the accept-everything
/// decoder passed 12 of 12, 6 invalid vectors included).
enum GradedDecoder: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case reference, acceptsEverything

    var testDescription: String { rawValue }

    func answer(_ input: JSONValue) throws -> SubjectAnswer {
        switch self {
        case .reference: try ReferenceSubject().evaluateSynchronously(family: .cbor, input: input)
        case .acceptsEverything: SubjectAnswer(.valid)
        }
    }

    /// How this decoder's answer to `vector` grades: the reference passes
    /// every vector; accepting everything fails the invalid ones.
    func expectedGrade(_ vector: ConformanceCase) -> Grade {
        self == .acceptsEverything && vector.vector.result == .invalid ? .fail : .pass
    }
}

@Suite struct RoutingTests {
    /// Six valid and six invalid cbor vectors.
    static let sample: [ConformanceCase] = {
        let cases = TrustSuiteTesting.cases(.cbor)
        return Array(cases.filter { $0.vector.result == .valid }.prefix(6))
            + Array(cases.filter { $0.vector.result == .invalid }.prefix(6))
    }()

    @Test func theSampleHoldsBothKinds() {
        #expect(Self.sample.count == 12 && Self.sample.filter { $0.vector.result == .invalid }.count == 6)
    }

    /// Two call sites, two setup names, one test: each check graded with its own closure.
    @Test(arguments: sample)
    func twoImplementationsInOneTest(_ vector: ConformanceCase) async {
        let strict = await vector.check(ConformanceSetup(name: "Reference")) { try GradedDecoder.reference.answer($0) }
        let lenient = await vector.check(ConformanceSetup(name: "AcceptsEverything")) {
            try GradedDecoder.acceptsEverything.answer($0)
        }
        #expect(strict.grade == .pass, "\(strict)")
        #expect(lenient.grade == GradedDecoder.acceptsEverything.expectedGrade(vector), "\(lenient)")
    }

    /// The implementation as the test's argument, one setup name and one
    /// call site for both: the argument tells the cases apart.
    @Test(arguments: GradedDecoder.allCases, sample)
    func theImplementationAsAnArgument(_ decoder: GradedDecoder, _ vector: ConformanceCase) async {
        let outcome = await vector.check(ConformanceSetup(name: "Decoder")) { try decoder.answer($0) }
        #expect(outcome.grade == decoder.expectedGrade(vector), "\(decoder): \(outcome)")
    }

    /// One call site in a loop over both implementations: the order of the
    /// checks of one vector tells them apart, one child each.
    @Test func aLoopAtOneCallSite() async {
        for vector in Self.sample {
            for decoder in GradedDecoder.allCases {
                let outcome = await vector.check(ConformanceSetup(name: "Decoder")) { try decoder.answer($0) }
                #expect(outcome.grade == decoder.expectedGrade(vector), "\(decoder): \(outcome)")
            }
        }
        #expect(await TrustSuiteTesting.processesStarted() == 2)
    }

    /// A check the child cannot make the same way (here a setup named at
    /// random) is not answered by any other closure: it is `error`, saying why.
    @Test func aCheckTheChildCannotReachIsRefused() async throws {
        let vector = try #require(Self.sample.last)
        let outcome = await vector.check(ConformanceSetup(name: "Decoder \(UUID())")) { _ in SubjectAnswer(.valid) }
        #expect(outcome.grade == .error && !outcome.passes, "\(outcome)")
        #expect("\(outcome)".contains("reached no check on this vector's route (test "), "\(outcome)")
    }
}
