import ConformanceKit
import ReferenceSubjects
import Testing
import TestSupport

/// Every committed vector, one Swift Testing case per tcId, graded the way
/// `trustsuite run` grades the reference (verdict, error code and outputs).
@Suite struct VectorFileTests {
    static let minimums: [Family: Int] = [
        .cbor: 200, .appAttestAttestation: 80, .appAttestAssertion: 60, .appAttestReceipt: 30, .devicecheck: 20, .keychainACL: 300, .keychainFlow: 80, .laRight: 120,
    ]

    @Test func fixturesLoadWithTheirMinimumCounts() throws {
        let files = try FixtureVectors.loaded.get()
        for (family, minimum) in Self.minimums {
            let count = files.filter { $0.family == family }.flatMap(\.vectors).count
            #expect(count >= minimum, "\(family.rawValue): \(count) vectors, at least \(minimum) asked for")
        }
    }

    /// Each family's files sit in its registry folder, and every family has some.
    @Test(arguments: Family.allCases)
    func familyLivesInItsFolder(_ family: Family) throws {
        let files = try FixtureVectors.loaded.get().filter { $0.family == family }
        #expect(!files.isEmpty, "no vector file for \(family.rawValue)")
        for file in files {
            #expect(file.path.contains("Fixtures/\(family.fixtureFolder)/"), "\(file.path)")
        }
    }

    /// Every vector of every family, one case each (named by file, tcId and id).
    @Test(arguments: Family.allCases.flatMap(FixtureVectors.cases))
    func vector(_ testCase: VectorCase) async throws {
        let vector = testCase.vector
        let answer = try await ReferenceSubject().evaluate(family: vector.family, input: vector.input)
        let (grade, message) = Grader.grade(vector, answer: answer, gradesErrorCodes: true, gradesOutputs: true)
        #expect(grade == .pass, "\(message)")
    }
}
