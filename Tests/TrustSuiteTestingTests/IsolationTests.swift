import ConformanceKit
import Foundation
import ReferenceSubjects
import Synchronization
import Testing
import TrustSuiteSupport
import TrustSuiteTesting
import VectorContract

/// A CBOR decoder with two deliberate crashes (issue 51), answering like the
/// reference otherwise:
/// - it reserves room for every item an array header (`0x9a`, a 32-bit
///   count) declares before reading one: `9affffffff` asks for 2^32 - 1
///   items of 8 bytes, 34 GB, and the allocation fails under the child's
///   address-space limit (as the held-out library of issue 51 did);
/// - it takes the reserved head `0x1d` for an 8-byte head and reads its
///   argument without a length check: an index out of range, a trap.
enum TrappingDecoder {
    static func answer(_ input: JSONValue) throws -> SubjectAnswer {
        let bytes = input["cborHex"]?.stringValue.flatMap { BinaryText.hex($0) } ?? []
        if bytes.count >= 5, bytes[0] == 0x9a {
            let declared = bytes[1...4].reduce(0) { $0 << 8 | Int($1) }
            var items: [UInt64] = []
            items.reserveCapacity(declared)
            items.append(UInt64(declared))
            guard items.capacity >= declared else { throw DecoderError() }
        }
        if bytes.first == 0x1d {
            let argument = bytes[1...8]
            guard !argument.isEmpty else { throw DecoderError() }
        }
        return try ReferenceSubject().evaluateSynchronously(family: .cbor, input: input)
    }

    struct DecoderError: Error {}

    /// The vectors it crashes on, each listed by its id (a glob never lists a crash).
    static let crashing: Set<String> = [
        "cbor-limit::array-declares-2^32-1-items::wellFormed", "cbor-limit::array-declares-2^32-1-items::deterministic",
        "cbor-limit::array-declares-2^32-1-items::ctap2", "cbor-reserved::1d::wellFormed",
    ]

    static let expected: ExpectedFailures? = {
        let object = JSONValue.object(
            Dictionary(uniqueKeysWithValues: crashing.map { ($0, JSONValue.string("TrappingDecoder crashes here on purpose")) }))
        return try? ExpectedFailures.parse(Data(object.jsonText.utf8), path: "expected.json")
    }()
}

@Suite struct IsolationTests {
    static let setup = ConformanceSetup(name: "TrappingDecoder", expected: TrappingDecoder.expected)

    @Test func theVectorsAndTheExpectedListLoad() throws {
        #expect(try TrustSuiteTesting.files.get().contains { $0.family == .cbor })
        #expect(TrappingDecoder.expected?.entries.count == TrappingDecoder.crashing.count)
        let ids = Set(TrustSuiteTesting.cases(.cbor).map(\.vector.id))
        #expect(TrappingDecoder.crashing.isSubset(of: ids), "a crashing vector's id changed")
    }

    /// Every cbor vector: the four crashes are critical and listed, every
    /// other vector is graded — and passes — in the same `swift test`,
    /// after the crashes as before them.
    @Test(arguments: TrustSuiteTesting.cases(.cbor))
    func aTrappingDecoderIsGradedToTheEndOfTheFamily(_ vector: ConformanceCase) async {
        let outcome = await vector.check(Self.setup) { try TrappingDecoder.answer($0) }
        if TrappingDecoder.crashing.contains(vector.vector.id) {
            #expect(outcome.critical && outcome.grade == .error && outcome.listed != nil && outcome.passes, "\(outcome)")
        } else {
            #expect(!outcome.critical && outcome.grade == .pass && outcome.passes, "\(outcome)")
        }
    }

    /// The family in order in one test: each crash costs one more process
    /// (N crashes, N + 1 processes), and the vector after a crash is answered.
    @Test func eachCrashCostsOneProcessAndTheNextVectorIsAnswered() async {
        var crashed = 0
        var afterCrash: [ConformanceOutcome] = []
        var previousCrashed = false
        for vector in TrustSuiteTesting.cases(.cbor) {
            let outcome = await vector.check(Self.setup) { try TrappingDecoder.answer($0) }
            if previousCrashed { afterCrash.append(outcome) }
            previousCrashed = outcome.critical
            if outcome.critical { crashed += 1 }
        }
        #expect(crashed == TrappingDecoder.crashing.count)
        #expect(await TrustSuiteTesting.processesStarted() == crashed + 1)
        #expect(
            !afterCrash.isEmpty
                && afterCrash.allSatisfy { $0.critical ? TrappingDecoder.crashing.contains($0.case.vector.id) : $0.grade == .pass })
    }

    /// How a crash reads, listed and not: critical, the signal, and what the
    /// implementation said (Swift's fatal error, the failed allocation).
    @Test func aCrashReadsLikeThis() async throws {
        let cases = TrustSuiteTesting.cases(.cbor)
        let trap = try #require(cases.first { $0.vector.id == "cbor-reserved::1d::wellFormed" })
        let unlisted = ConformanceSetup(name: "TrappingDecoder")
        let trapped = await trap.check(unlisted) { try TrappingDecoder.answer($0) }
        #expect(trapped.critical && !trapped.passes, "\(trapped)")
        let text = "\(trapped)"
        let heading = "tcId \(trap.vector.tcId) cbor-reserved::1d::wellFormed: critical — crashed: its isolated process"
        #expect(text.contains(heading), "\(text)")
        #expect(text.contains("was killed by signal") && text.contains("Fatal error"), "\(text)")

        let oversized = try #require(cases.first { $0.vector.id == "cbor-limit::array-declares-2^32-1-items::wellFormed" })
        let exhausted = await oversized.check(unlisted) { try TrappingDecoder.answer($0) }
        #expect(exhausted.critical && !exhausted.passes, "\(exhausted)")
        #expect("\(exhausted)".contains("out of memory (its address space was limited to 2048 MiB more)"), "\(exhausted)")

        let listed = await trap.check(Self.setup) { try TrappingDecoder.answer($0) }
        #expect(listed.critical && listed.passes && "\(listed)".contains("(expected: TrappingDecoder crashes here on purpose)"))
    }

    /// The child's memory bound is its hard limit too (issue 61, item 7):
    /// code under test that raises its soft limit to the hard one gets no
    /// more room. The closure answers like the reference only when raising
    /// fails, and accepts everything (a wrong answer on an invalid vector)
    /// when it succeeds: before, the hard limit was unlimited and it did.
    @Test func codeUnderTestCannotRaiseItsMemoryBound() async throws {
        let invalid = try #require(TrustSuiteTesting.cases(.cbor).first { $0.vector.result == .invalid })
        let outcome = await invalid.check(ConformanceSetup(name: "RaisesItsLimit")) { input in
            #if os(Linux)
            var limit = rlimit()
            let resource = __rlimit_resource_t(RLIMIT_AS.rawValue)
            if getrlimit(resource, &limit) == 0, limit.rlim_max == rlim_t.max || limit.rlim_cur < limit.rlim_max {
                limit.rlim_cur = limit.rlim_max
                if setrlimit(resource, &limit) == 0, limit.rlim_cur == rlim_t.max {
                    return SubjectAnswer(.valid)
                }
            }
            #endif
            return try ReferenceSubject().evaluateSynchronously(family: .cbor, input: input)
        }
        #expect(outcome.passes, "\(outcome)")
    }

    /// An answer the child cannot put on one JSON line as it is (issue 61,
    /// item 7) is not a crash: non-finite numbers (a CBOR decoder's value of
    /// `f97e00`) travel as their diagnostic spelling, and an output over the
    /// reply line's 16 MiB is the implementation's error. Before, both
    /// became `malformed reply line: null` or `reply too long`: critical.
    @Test func answersTheLineCannotHoldAreNotCrashes() async throws {
        let nan = try #require(TrustSuiteTesting.cases(.cbor).first { $0.vector.id == "cbor-appendix-a::f97e00::wellFormed" })
        let infinity = try #require(TrustSuiteTesting.cases(.cbor).first { $0.vector.id == "cbor-appendix-a::f97c00::wellFormed" })
        // One call site: one child answers both vectors, by their input alone.
        func grade(_ vector: ConformanceCase) async -> ConformanceOutcome {
            await vector.check(ConformanceSetup(name: "Unwieldy")) { input in
                guard input["cborHex"]?.stringValue == "f97e00" else {
                    return SubjectAnswer(.valid, output: .object(["diagnostic": .string(String(repeating: "a", count: 17 << 20))]))
                }
                return SubjectAnswer(
                    .valid, output: .object(["value": .double(.nan), "up": .double(.infinity), "down": .double(-.infinity)]))
            }
        }
        let nonFinite = await grade(nan)
        #expect(!nonFinite.critical && nonFinite.grade == .pass, "\(nonFinite)")
        #expect(
            nonFinite.answer?.output
                == .object(["value": .string("NaN"), "up": .string("Infinity"), "down": .string("-Infinity")]),
            "\(nonFinite)")
        let overLong = await grade(infinity)
        #expect(!overLong.critical && overLong.grade == .error, "\(overLong.message.prefix(300))")
        #expect(overLong.message.contains("over the 16 MiB a reply may hold"), "\(overLong.message.prefix(300))")
        #expect(await TrustSuiteTesting.processesStarted() == 1)
    }

    /// The protocol's pipes are out of the code under test's way (issue 61,
    /// item 7): a process it starts with the default standard input (here
    /// `cat`, reading until its input ends) gets `/dev/null` and no copy of
    /// the request or reply pipe. Before, it inherited the request pipe as
    /// its stdin and read the parent's next request: that vector hung.
    @Test func aProcessTheCodeStartsSeesNoRequest() async throws {
        let cases = TrustSuiteTesting.cases(.cbor).filter { $0.vector.result == .valid }.prefix(3)
        let setup = ConformanceSetup(name: "StartsAProcess", isolation: .process(deadline: .seconds(5)))
        var outcomes: [ConformanceOutcome] = []
        for vector in cases {
            outcomes.append(
                await vector.check(setup) { input in
                    let cat = Process()
                    cat.executableURL = URL(fileURLWithPath: "/bin/sh")
                    // Reads its stdin to the end.
                    cat.arguments = ["-c", "cat >/dev/null"]
                    try cat.run()
                    cat.waitUntilExit()
                    return try ReferenceSubject().evaluateSynchronously(family: .cbor, input: input)
                })
        }
        #expect(outcomes.count == 3 && outcomes.allSatisfy { $0.grade == .pass && !$0.critical }, "\(outcomes)")
        #expect(await TrustSuiteTesting.processesStarted(setup.isolation) == 1)
    }

    /// A crash is listed by its id, never by a glob (as `trustsuite run --expected`).
    @Test func aGlobDoesNotListACrash() async throws {
        let trap = try #require(TrustSuiteTesting.cases(.cbor).first { $0.vector.id == "cbor-reserved::1d::wellFormed" })
        let globbed = try ExpectedFailures.parse(Data(#"{"cbor-reserved::*": "reserved heads"}"#.utf8), path: "glob.json")
        let outcome = await trap.check(ConformanceSetup(name: "TrappingDecoder", expected: globbed)) { try TrappingDecoder.answer($0) }
        #expect(outcome.critical && outcome.listed == nil && !outcome.passes, "\(outcome)")
    }

    /// A hang is cut at the per-vector deadline (a bound that only catches
    /// the hang: the answer never comes), and the next vector is answered
    /// by a fresh process.
    @Test func aHangIsCutAtTheDeadlineAndTheNextVectorIsAnswered() async throws {
        let cases = TrustSuiteTesting.cases(.cbor)
        let hanging = try #require(cases.first { $0.vector.id == "cbor-reserved::1c::wellFormed" })
        let next = try #require(cases.first { $0.vector.id == "cbor-reserved::1e::wellFormed" })
        let setup = ConformanceSetup(name: "HangingDecoder", isolation: .process(deadline: .seconds(3)))
        // One call site, so one child answers both vectors (a child per call site).
        func grade(_ vector: ConformanceCase) async -> ConformanceOutcome {
            await vector.check(setup) { input in
                while input["cborHex"]?.stringValue == "1c" { sleep(3600) }
                return try ReferenceSubject().evaluateSynchronously(family: .cbor, input: input)
            }
        }
        let hung = await grade(hanging)
        #expect(hung.critical && "\(hung)".contains("hung: no answer within 3 s (the per-vector deadline"), "\(hung)")
        let after = await grade(next)
        #expect(after.grade == .pass && after.passes, "\(after)")
        #expect(await TrustSuiteTesting.processesStarted(setup.isolation) == 2)
    }

    /// In process (the fast mode) the same answers are graded the same, with no child.
    @Test func inProcessGradesTheSameAnswers() async throws {
        let vector = try #require(TrustSuiteTesting.cases(.cbor).first { $0.vector.id == "cbor-reserved::1e::wellFormed" })
        let setup = ConformanceSetup(name: "TrappingDecoder", isolation: .inProcess)
        let outcome = await vector.check(setup) { try TrappingDecoder.answer($0) }
        #expect(outcome.grade == .pass && !outcome.critical)
        #expect(await TrustSuiteTesting.processesStarted(.inProcess) == 0)
    }

    /// An error the implementation throws is `error`, not critical, in both modes.
    @Test(arguments: [Isolation.process, Isolation.inProcess])
    func aThrownErrorIsAnErrorNotACrash(_ isolation: Isolation) async throws {
        struct Refusal: Error, CustomStringConvertible { var description: String { "no decoder today" } }
        let vector = try #require(TrustSuiteTesting.cases(.cbor).first)
        let outcome = await vector.check(ConformanceSetup(name: "Thrower", isolation: isolation)) { _ in throw Refusal() }
        #expect(outcome.grade == .error && !outcome.critical && outcome.message == "no decoder today", "\(outcome)")
    }

    /// Issue 52: an expected entry is found by a lookup of the vector's id
    /// plus one match per glob, never by matching every entry: with 121k
    /// entries the cbor family took 286 s. Counted, not timed: the number
    /// of entry comparisons one check makes.
    @Test func expectedEntriesAreLookedUpNotScanned() async throws {
        let vector = try #require(TrustSuiteTesting.cases(.cbor).last)
        var object: [String: JSONValue] = [:]
        // Ids that sort before every cbor id: a pass over the entries in order meets them all first.
        for index in 0..<121_000 { object["another-implementation::vector-\(index)"] = .string("listed elsewhere") }
        object["cbor-none-such-*"] = .string("a glob that matches nothing here")
        object[vector.vector.id] = .string("listed by id")
        let expected = try ExpectedFailures.parse(Data(JSONValue.object(object).jsonText.utf8), path: "big.json")
        let setup = ConformanceSetup(name: "Reference", expected: expected, isolation: .inProcess)
        let counter = ExpectedFailures.ComparisonCounter()
        let outcome = await ExpectedFailures.$comparisons.withValue(counter) {
            await vector.check(setup) { try ReferenceSubject().evaluateSynchronously(family: .cbor, input: $0) }
        }
        #expect(outcome.listed == "listed by id")
        let comparisons = counter.count.load(ordering: .relaxed)
        #expect(comparisons <= 1, "one check compared the id with \(comparisons) entries")
    }
}
