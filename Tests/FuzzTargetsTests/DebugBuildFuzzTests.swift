import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Issue 24, item 6: the decoders that read through unsafe pointers over
/// slices (StrictCBOR's structural pass and map-key order, which hand on
/// pointer slices of payloads and keys, and the parsers over it:
/// authenticator data, COSE keys) are fuzzed in a debug build too.
/// `swift test` builds in debug, where every `UnsafeBufferPointer` subscript
/// and `rebasing:` slice is bounds-checked (`_debugPrecondition`), so a read
/// past a slice's end traps here — the release fuzz build of Fuzz/ (address
/// sanitizer) sees only reads past the whole allocation, and a read past a
/// payload inside the input is within it. Each harness gets a fixed number of
/// inputs mutated from its seed corpus with a seeded generator, so a run is
/// reproducible and takes seconds; every input also goes through the
/// harness's oracle.
@Suite struct DebugBuildFuzzTests {
    /// The harnesses over the pointer-reading decoders.
    static let harnesses: [Harness] = [.cbor, .cborDeterministic, .cborCTAP2, .authenticatorData, .coseKey]
    /// Mutated inputs per harness (a few seconds in a debug build).
    static let inputsPerHarness = 3000

    /// The fuzz mutator's seeded generator (SplitMix64), so every run makes the same inputs.
    typealias SeededGenerator = StructuredAttestation.Random

    /// Bytes that steer a CBOR head: the length-width markers, indefinite
    /// starts, break, the largest values.
    static let interesting: [UInt8] = [0x00, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1F, 0x5F, 0x7F, 0x9F, 0xBF, 0xFF, 0xF9, 0xFA, 0xFB]

    /// One to four of: flip a bit, put an interesting byte, cut the end,
    /// repeat a run, insert a byte.
    static func mutate(_ input: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0...4, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = interesting.randomElement(using: &random) ?? 0
            case 2 where !bytes.isEmpty:
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 3 where !bytes.isEmpty:
                let start = Int.random(in: 0..<bytes.count, using: &random)
                let end = Int.random(in: start...min(bytes.count, start + 16), using: &random)
                bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
            }
        }
        return bytes
    }

    @Test(arguments: harnesses)
    func mutatedSeedsPassTheOracleInADebugBuild(_ harness: Harness) async throws {
        let seeds = Locations.files(in: Locations.fuzz.appendingPathComponent("Corpus").appendingPathComponent(harness.rawValue))
            .compactMap { try? [UInt8](Data(contentsOf: $0)) }
        try #require(!seeds.isEmpty, "Fuzz/Corpus/\(harness.rawValue) holds no seeds")
        var random = SeededGenerator(state: UInt64(harness.rawValue.utf8.count) &* 0x1234_5678)
        for index in 0..<Self.inputsPerHarness {
            let input = Self.mutate(seeds[index % seeds.count], &random)
            for problem in await harness.check(input) {
                Issue.record("\(harness.rawValue) input \(index) (\(input.map { String(format: "%02x", $0) }.joined())): \(problem)")
            }
        }
    }
}
