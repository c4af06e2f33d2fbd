import Foundation
import Testing
import TrustSuiteTesting
import UIntDecoder

/// The example's own implementation graded by the suite. Each answer comes
/// from a child process (``Isolation/process``, the default): the decoder's
/// trap on `1d` is that vector's critical outcome, listed in expected.json,
/// and the rest of the family is still graded.
@Suite struct UIntDecoderConformanceTests {
    static let expected: ExpectedFailures? = Bundle.module.url(forResource: "expected", withExtension: "json")
        .flatMap { try? ExpectedFailures.load($0.path) }
    static let setup = ConformanceSetup(name: "UIntDecoder", expected: expected)

    /// The decoder's answer as the suite grades it.
    static func answer(_ input: JSONValue) -> SubjectAnswer {
        guard let hex = input["cborHex"]?.stringValue, let bytes = BinaryText.hex(hex) else { return .unsupported }
        switch UIntDecoder.decode(bytes) {
        case .value: return SubjectAnswer(.valid)
        case .malformed(let why): return SubjectAnswer(.invalid, error: why)
        case .notAnUnsignedInteger: return .unsupported
        }
    }

    @Test func theVectorsAndTheExpectedFileLoad() throws {
        #expect(try !TrustSuiteTesting.files.get().isEmpty)
        #expect(Self.expected != nil, "expected.json did not load")
    }

    @Test(arguments: TrustSuiteTesting.cases(.cbor))
    func cbor(_ vector: ConformanceCase) async {
        let outcome = await vector.check(Self.setup) { Self.answer($0) }
        #expect(outcome.passes, "\(outcome)")
    }

    /// How a failure reads: the deliberate bug on one vector, listed in expected.json.
    @Test func aListedFailureReadsLikeThis() async throws {
        let vector = try #require(TrustSuiteTesting.cases(.cbor).first { $0.vector.id == "cbor-int::nonminimal-1800::deterministic" })
        let outcome = await vector.check(Self.setup) { Self.answer($0) }
        #expect(outcome.grade == .fail && outcome.listed != nil && outcome.passes)
        #expect("\(outcome)".contains("accepted an invalid input (expected nonMinimalEncoding)"), "\(outcome)")
        let unlisted = await vector.check(ConformanceSetup(name: "UIntDecoder")) { Self.answer($0) }
        #expect(!unlisted.passes, "without the expected file the same answer fails: \(unlisted)")
    }

    /// How a listed crash reads: the decoder traps on `1d`, its isolated
    /// process dies, the vector is critical and listed by its id, and the
    /// next vector is answered by a fresh process.
    @Test func aListedCrashReadsLikeThis() async throws {
        let cases = TrustSuiteTesting.cases(.cbor)
        // One call site and setup: one child answers both vectors, restarted after the crash.
        func grade(_ vector: ConformanceCase) async -> ConformanceOutcome { await vector.check(Self.setup) { Self.answer($0) } }
        let vector = try #require(cases.first { $0.vector.id == "cbor-reserved::1d::wellFormed" })
        let outcome = await grade(vector)
        #expect(outcome.critical && outcome.listed != nil && outcome.passes, "\(outcome)")
        #expect("\(outcome)".contains("critical — crashed: its isolated process was killed by signal"), "\(outcome)")
        #expect("\(outcome)".contains("Fatal error"), "its stderr is shown: \(outcome)")
        let next = try #require(cases.first { $0.vector.id == "cbor-reserved::1e::wellFormed" })
        let after = await grade(next)
        #expect(after.grade == .pass && !after.critical, "\(after)")
        #expect(await TrustSuiteTesting.processesStarted() == 2)
    }
}
