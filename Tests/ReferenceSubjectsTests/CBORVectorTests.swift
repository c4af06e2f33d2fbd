import ConformanceKit
import ReferenceSubjects
import Testing
import TestSupport

/// Every committed cbor vector, one Swift Testing case per tcId, graded the
/// way `trustsuite run` grades it (verdict, error code and diagnostic).
@Suite struct CBORVectorTests {
    @Test func fixturesLoad() throws {
        let files = try FixtureVectors.loaded.get()
        let cbor = files.filter { $0.family == .cbor }.flatMap(\.vectors)
        #expect(cbor.count >= 200, "issue #2 asks for at least 200 cbor vectors")
    }

    @Test(arguments: FixtureVectors.cases(.cbor))
    func vector(_ testCase: VectorCase) async throws {
        let subject = ReferenceSubject()
        let answer = try await subject.evaluate(family: .cbor, input: testCase.vector.input)
        let (grade, message) = Grader.grade(testCase.vector, answer: answer, gradesErrorCodes: true)
        #expect(grade == .pass, "\(message)")
    }
}
