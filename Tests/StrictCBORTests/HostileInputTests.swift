import Foundation
import ConformanceKit
import VectorContract
import StrictCBOR
import Testing
import TrustSuiteSupport

/// The hostile inputs listed in spec/cbor.md, each rejected with its code
/// (and never trapping). Inputs that only break the deterministic rules are
/// checked in the deterministic modes.
@Suite struct HostileInputTests {
    struct Case: Sendable, CustomStringConvertible {
        let hex: String
        let code: CBORError.Code
        let modes: [CBORMode]
        var description: String { "\(hex.prefix(32)) → \(code.rawValue)" }
    }

    static let all = CBORMode.allCases
    static let strict: [CBORMode] = [.deterministic, .ctap2]

    static let cases: [Case] =
        [
            Case(hex: String(repeating: "81", count: 100_000) + "00", code: .depthLimitExceeded, modes: all),
            Case(hex: String(repeating: "c6", count: 10_000) + "00", code: .depthLimitExceeded, modes: [.wellFormed, .deterministic]),
            Case(hex: String(repeating: "c6", count: 10_000) + "00", code: .tagNotAllowed, modes: [.ctap2]),
            Case(hex: "9bffffffffffffffff", code: .lengthLimitExceeded, modes: all),
            Case(hex: "bb8000000000000000", code: .lengthLimitExceeded, modes: all),
            Case(hex: "5b00000001000000004142", code: .truncated, modes: all),
            Case(hex: "5b7fffffffffffffff00", code: .truncated, modes: all),
            Case(hex: "5f6161ff", code: .invalidIndefiniteChunk, modes: [.wellFormed]),
            Case(hex: "7f4100ff", code: .invalidIndefiniteChunk, modes: [.wellFormed]),
            Case(hex: "5f00ff", code: .invalidIndefiniteChunk, modes: [.wellFormed]),
            Case(hex: "5f5f4100ffff", code: .invalidIndefiniteChunk, modes: [.wellFormed]),
            Case(hex: "ff", code: .unexpectedBreak, modes: all),
            Case(hex: "81ff", code: .unexpectedBreak, modes: all),
            Case(hex: "a100ff", code: .unexpectedBreak, modes: all),
            Case(hex: "bf00ff", code: .unexpectedBreak, modes: [.wellFormed]),
            Case(hex: "1f", code: .indefiniteLengthNotAllowed, modes: all),
            Case(hex: "3f", code: .indefiniteLengthNotAllowed, modes: all),
            Case(hex: "df", code: .indefiniteLengthNotAllowed, modes: all),
            Case(hex: "1817", code: .nonMinimalEncoding, modes: strict),
            Case(hex: "1900ff", code: .nonMinimalEncoding, modes: strict),
            Case(hex: "3800", code: .nonMinimalEncoding, modes: strict),
            Case(hex: "580100", code: .nonMinimalEncoding, modes: strict),
            Case(hex: "980100", code: .nonMinimalEncoding, modes: strict),
            Case(hex: "b800", code: .nonMinimalEncoding, modes: strict),
            Case(hex: "a201000101", code: .duplicateMapKey, modes: all),
            Case(hex: "a26161006161 01".replacingOccurrences(of: " ", with: ""), code: .duplicateMapKey, modes: all),
            Case(hex: "a20100180101", code: .duplicateMapKey, modes: [.wellFormed]),
            Case(hex: "a2f97e0000f97e0001", code: .duplicateMapKey, modes: [.wellFormed, .deterministic]),
            Case(hex: "a203000100", code: .unsortedMapKeys, modes: strict),
            Case(hex: "62c328", code: .invalidUTF8, modes: all),
            Case(hex: "63eda080", code: .invalidUTF8, modes: all),
            Case(hex: "62c080", code: .invalidUTF8, modes: all),
            Case(hex: "64f4908080", code: .invalidUTF8, modes: all),
            Case(hex: "f800", code: .invalidSimpleValue, modes: all),
            Case(hex: "f814", code: .invalidSimpleValue, modes: all),
            Case(hex: "f81f", code: .invalidSimpleValue, modes: all),
            Case(hex: "0000", code: .trailingBytes, modes: all),
            Case(hex: "a0ff", code: .trailingBytes, modes: all),
            Case(hex: "1901", code: .truncated, modes: all),
            Case(hex: "8201", code: .truncated, modes: all),
            Case(hex: "7f6161", code: .truncated, modes: [.wellFormed]),
            Case(hex: "c0", code: .truncated, modes: [.wellFormed, .deterministic]),
            Case(hex: "", code: .truncated, modes: all),
            Case(hex: "9fff", code: .indefiniteLengthNotAllowed, modes: strict),
            Case(hex: "bfff", code: .indefiniteLengthNotAllowed, modes: strict),
        ]
        + (0..<8).flatMap { major in
            (28...30).map { info in
                Case(hex: String(major << 5 | info, radix: 16), code: .reservedAdditionalInfo, modes: all)
            }
        }

    @Test(arguments: cases)
    func rejected(_ c: Case) throws {
        let bytes = try #require(BinaryText.hex(c.hex))
        for mode in c.modes {
            do {
                let value = try CBORDecoder(mode: mode).decode(bytes)
                Issue.record("\(mode.rawValue) accepted \(value.diagnostic.prefix(40))")
            } catch {
                #expect(error.code == c.code, "\(mode.rawValue): \(error)")
                #expect((0...bytes.count).contains(error.offset))
            }
        }
    }

    /// 100 000 levels of every kind of nesting are rejected without a crash.
    @Test(arguments: ["81", "9f", "a100", "bf00", "c6", "d818"])
    func deepNesting(_ opener: String) throws {
        let bytes = try #require(BinaryText.hex(String(repeating: opener, count: 100_000) + "00"))
        for mode in CBORMode.allCases {
            #expect(throws: CBORError.self) { try CBORDecoder(mode: mode).decode(bytes) }
        }
        let error = try #require(throws: CBORError.self) { try CBORDecoder().decode(bytes) }
        #expect(error.code == .depthLimitExceeded)
        #expect(error.offset == CBORLimits.defaultMaxDepth * opener.count / 2)
    }

    @Test func depthBoundaryAndConfigurableLimit() throws {
        let at64 = try #require(BinaryText.hex(String(repeating: "81", count: 64) + "00"))
        _ = try CBORDecoder().decode(at64)
        let limits = CBORLimits(maxDepth: 8)
        #expect(throws: CBORError(.depthLimitExceeded, at: 8)) {
            try CBORDecoder(mode: .wellFormed, limits: limits).decode(at64)
        }
        // The hard bound stops callers from asking for stack-exhausting depths.
        #expect(CBORLimits(maxDepth: 1_000_000).maxDepth == CBORLimits.hardMaxDepth)
    }

    @Test func inputLengthLimit() throws {
        let limits = CBORLimits(maxInputLength: 4)
        #expect(throws: CBORError(.lengthLimitExceeded, at: 4)) {
            try CBORDecoder(mode: .wellFormed, limits: limits).decode([0x45, 1, 2, 3, 4, 5])
        }
    }

    @Test func decodeFirstLeavesTheRest() throws {
        let (value, consumed) = try CBORDecoder(mode: .ctap2).decodeFirst([0xA1, 0x01, 0x02, 0xFF, 0x00])
        #expect(try value.value == .map([(.unsigned(1), .unsigned(2))]))
        #expect(value.encodedBytes.elementsEqual([0xA1, 0x01, 0x02]))
        #expect(consumed == 3)
    }
}
