@testable import FuzzTargets
import StrictCBOR
import Testing

/// The CBOR differential (StrictCBOR against libcbor): it fires on a
/// StrictCBOR bug, and each listed class is a real disagreement, excused
/// only because Fuzz/known-disagreements.json lists it.
#if TRUSTSUITE_LIBCBOR
@Suite struct CBORDifferentialTests {
    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).compactMap {
            let start = text.index(text.startIndex, offsetBy: $0)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)
        }
    }

    /// Witnesses from Fixtures/cbor/strict-decoding.json (tcId in the comment).
    static let witnesses: [(String, Disagreement)] = [
        ("a201000101", .duplicateMapKey),  // 604
        ("bf01000101ff", .duplicateMapKey),  // 622
        (String(repeating: "81", count: 65) + "00", .nestingLimit),  // 490
        ("e0", .unassignedSimpleValue),  // 289
        ("f3", .unassignedSimpleValue),  // 292
        ("f820", .unassignedSimpleValue),  // 295
        ("f97e01", .halfNaNPayload),  // 199
        ("c600", .shortTagHead),  // 860
        ("c6c6c600", .shortTagHead),  // 472
    ]

    @Test(arguments: witnesses.indices)
    func listedClassIsRealAndExcusedOnlyWhenListed(_ index: Int) {
        let (text, kind) = Self.witnesses[index]
        let bytes = Self.hex(text)
        let verdicts = FuzzTargets.cborVerdicts(bytes)
        #expect(verdicts.strict != verdicts.libcbor.item, "\(text): the two decoders agree")
        #expect(verdicts.classes == [kind], "\(text): classes \(verdicts.classes)")
        #expect(FuzzTargets.cborDifferential(bytes).isEmpty, "\(text) is listed and excused")
        #expect(
            !FuzzTargets.cborDifferential(bytes, decode: FuzzTargets.strictCBOR, entries: []).isEmpty,
            "\(text): unlisted, the disagreement is a finding")
    }

    /// Inputs both read the same: integers in every head width, strings in
    /// chunks, floats of every width (NaN payloads of single and double
    /// precision bit for bit), tags, simple values libcbor knows.
    @Test(arguments: [
        "1bffffffffffffffff", "3bffffffffffffffff", "1800", "5f42010243030405ff", "7f61616162ff",
        "fa7fc00001", "fa7f800001", "fb7ff0000000000001", "f9fe00", "f97c00", "f90001", "c1fb41d452d9ec200000",
        "d9ffff00", "a2616101616202", "9f9fffff", "f4", "f7", "80", "a0",
    ])
    func bothReadTheSameItem(_ text: String) throws {
        let bytes = Self.hex(text)
        let verdicts = FuzzTargets.cborVerdicts(bytes)
        #expect(verdicts.strict != nil && verdicts.strict == verdicts.libcbor.item, "\(text): \(verdicts.libcbor.refusal ?? "")")
        #expect(verdicts.classes.isEmpty)
        #expect(FuzzTargets.cborDifferential(bytes).isEmpty)
    }

    /// Injected StrictCBOR bugs the oracle must report: negative integers
    /// read as -n (not -1-n); text accepted without checking UTF-8; a map
    /// with a duplicate key accepted (libcbor reads such a map too, so only
    /// the duplicate check catches it).
    @Test func firesOnAnInjectedStrictCBORBug() {
        func offByOne(_ bytes: [UInt8]) -> Result<CBORDataModel, CBORError> {
            FuzzTargets.strictCBOR(bytes).map { item in
                if case .negative(let n) = item, n < UInt64.max { return .negative(n + 1) }
                return item
            }
        }
        #expect(!FuzzTargets.cborDifferential([0x20], decode: offByOne).isEmpty)
        #expect(FuzzTargets.cborDifferential([0x20], decode: FuzzTargets.strictCBOR).isEmpty)

        let notUTF8: [UInt8] = [0x62, 0xC3, 0x28]
        func lenientText(_ bytes: [UInt8]) -> Result<CBORDataModel, CBORError> {
            bytes.first == 0x62 ? .success(.text(Array(bytes.dropFirst()))) : FuzzTargets.strictCBOR(bytes)
        }
        #expect(!FuzzTargets.cborDifferential(notUTF8, decode: lenientText).isEmpty)
        #expect(FuzzTargets.cborDifferential(notUTF8).isEmpty)

        let duplicate = Self.hex("a201000101")
        func lenientMaps(_ bytes: [UInt8]) -> Result<CBORDataModel, CBORError> {
            .success(.map([.unsigned(1), .unsigned(0), .unsigned(1), .unsigned(1)]))
        }
        #expect(FuzzTargets.cborDifferential(duplicate, decode: lenientMaps).contains { $0.contains("two keys equal") })
    }

    /// A count larger than the input is refused before libcbor allocates it.
    @Test func oversizedCountsAreNotLoaded() {
        let reading = LibCBOR.read([0x9B, 0, 0, 0, 1, 0, 0, 0, 0])
        #expect(reading.item == nil && reading.countBeyondInput)
        #expect(FuzzTargets.cborDifferential([0x9B, 0, 0, 0, 1, 0, 0, 0, 0]).isEmpty)
    }
}
#endif
