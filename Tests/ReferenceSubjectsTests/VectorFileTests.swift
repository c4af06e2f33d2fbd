import ConformanceKit
import VectorContract
import TrustSuiteSupport
import ReferenceSubjects
import Testing
import TestSupport

/// Every committed vector, one Swift Testing case per tcId, graded the way
/// `trustsuite run` grades the reference (verdict, error code and outputs).
@Suite struct VectorFileTests {
    /// The fewest vectors a family may have: an exhaustive switch, so a new
    /// family does not compile without its minimum (a dictionary let one
    /// go unchecked).
    static func minimum(_ family: Family) -> Int {
        switch family {
        case .cbor: 200
        case .appAttestAttestation: 80
        case .appAttestAssertion: 60
        case .appAttestReceipt: 30
        case .devicecheck: 20
        case .keychainACL: 300
        case .keychainFlow: 80
        case .laRight: 120
        case .appleAPI: 60
        }
    }

    @Test(arguments: Family.allCases)
    func fixturesLoadWithTheirMinimumCounts(_ family: Family) throws {
        let count = try FixtureVectors.loaded.get().filter { $0.family == family }.flatMap(\.vectors).count
        #expect(count >= Self.minimum(family), "\(family.rawValue): \(count) vectors, at least \(Self.minimum(family)) asked for")
    }

    /// Each family's files sit in its registry folder, and every family has some.
    @Test(arguments: Family.allCases)
    func familyLivesInItsFolder(_ family: Family) throws {
        let files = try FixtureVectors.loaded.get().filter { $0.family == family }
        #expect(!files.isEmpty, "no vector file for \(family.rawValue)")
        for file in files {
            // Fixtures/real/ holds the real-root App Attest vectors (not under CC0).
            let real = family.fixtureFolder == "app-attest" && file.path.contains("Fixtures/real/")
            #expect(file.path.contains("Fixtures/\(family.fixtureFolder)/") || real, "\(file.path)")
        }
    }

    /// Every App Attest vector carries its `attack` (spec/vectors.md,
    /// "App Attest vectors any verifier can run (round 3)", Severity).
    @Test(arguments: [Family.appAttestAttestation, .appAttestAssertion, .appAttestReceipt])
    func appAttestVectorsCarryTheirAttack(_ family: Family) throws {
        let vectors = try FixtureVectors.loaded.get().filter { $0.family == family }.flatMap(\.vectors)
        let missing = vectors.filter { $0.attack == nil }.map(\.id)
        #expect(missing.isEmpty, "\(missing.count) vectors without attack, e.g. \(missing.prefix(3))")
        #expect(vectors.contains { $0.attack == .signed } || family == .appAttestAssertion && vectors.contains { $0.attack == .network })
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
