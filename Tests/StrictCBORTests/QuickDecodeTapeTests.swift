@testable import StrictCBOR
import Testing
import TrustSuiteSupport

/// `decode` in wellFormed mode first runs the quick check of `validate`,
/// which records the tape as it goes (`QuickValidation.decode`). What it
/// decides must be exactly what the structural pass decides: the same
/// error, or the same bytes taken and the same tape, entry for entry (the
/// view reads nothing else). Inputs: those of the frozen-decoder
/// differential, source by source, and 4,000 seeded mutants of them.
@Suite struct QuickDecodeTapeTests {
    /// The configurations the quick check serves: wellFormed without tag
    /// validity, at the default depth limit and at a deeper and a shallow one.
    static let decoders: [CBORDecoder] = [
        CBORDecoder(mode: .wellFormed),
        CBORDecoder(mode: .wellFormed, limits: CBORLimits(maxDepth: 512)),
        CBORDecoder(mode: .wellFormed, limits: CBORLimits(maxDepth: 2)),
    ]

    /// One decode, described: the error, or the bytes taken and every tape entry.
    static func describe(_ decoder: CBORDecoder, _ bytes: [UInt8], whole: Bool, quick: Bool) -> String {
        do throws(CBORError) {
            let (item, consumed) = try decoder.decode(bytes[...], whole: whole, quick: quick)
            let storage = item.storage
            let entries = (0..<storage.tapeCount).map { index in
                let entry = storage.entry(index)
                return "\(entry.end)/\(entry.next)/\(entry.count)"
            }
            return "consumed \(consumed) of \(storage.bytes.count), tape [\(entries.joined(separator: " "))]"
        } catch {
            return "\(error.code.rawValue) at \(error.offset): \(error.reason)"
        }
    }

    @Test(arguments: FrozenDecoderDifferentialTests.sourceNames)
    func quickTapeIsThePassTape(_ source: String) {
        var differences: [String] = []
        for bytes in FrozenDecoderDifferentialTests.inputs(of: source) {
            for (index, decoder) in Self.decoders.enumerated() {
                for whole in [true, false] {
                    let quick = Self.describe(decoder, bytes, whole: whole, quick: true)
                    let pass = Self.describe(decoder, bytes, whole: whole, quick: false)
                    if quick != pass {
                        differences.append(
                            "\(BinaryText.hex(Array(bytes.prefix(48)))) [decoder \(index), whole \(whole)]\n"
                                + "  quick: \(quick)\n  pass:  \(pass)")
                    }
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences, first: \(differences.prefix(5).joined(separator: "\n"))")
    }

    /// The quick check does decide: the App Attest fixtures and the
    /// generated inputs are mostly its kind of document, and a tape it
    /// records for them is not empty (a check that always fell back to the
    /// pass would pass the test above while deciding nothing).
    @Test func theQuickCheckDecidesMostDocuments() {
        let inputs =
            (FrozenDecoderDifferentialTests.sources["fixtures app-attest"] ?? [])
            + (FrozenDecoderDifferentialTests.sources["generated"] ?? [])
        var decided = 0
        var withEntries = 0
        for bytes in inputs {
            let result = bytes.withUnsafeBufferPointer { buffer in
                QuickValidation.decode(buffer, input: bytes[...], whole: true, limits: CBORLimits.defaults(for: .wellFormed))
            }
            guard let result else { continue }
            decided += 1
            if case .success(let (storage, _)) = result, storage.tapeCount > 0 { withEntries += 1 }
        }
        #expect(decided * 2 > inputs.count, "decided \(decided) of \(inputs.count)")
        #expect(withEntries * 4 > inputs.count, "\(withEntries) with tape entries")
    }
}
