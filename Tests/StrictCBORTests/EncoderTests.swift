import Foundation
import ConformanceKit
import VectorContract
import StrictCBOR
import Testing
import TrustSuiteSupport

@Suite struct EncoderTests {
    @Test(arguments: [
        (0.0, "f90000"), (-0.0, "f98000"), (1.0, "f93c00"), (65504.0, "f97bff"), (100000.0, "fa47c35000"),
        (1.1, "fb3ff199999999999a"), (0x1p-24, "f90001"), (0x1p-149, "fa00000001"), (Double.infinity, "f97c00"),
        (Double.nan, "f97e00"), (-Double.infinity, "f9fc00"), (65505.0, "fa477fe100"),
    ])
    func shortestFloat(_ value: Double, _ hex: String) {
        #expect(CBOREncoder.canonical(.float(value)) == BinaryText.hex(hex))
    }

    @Test func headsAreShortest() {
        for (n, hex) in [
            (UInt64(23), "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65536, "1a00010000"),
            (UInt64(UInt32.max) + 1, "1b0000000100000000"),
        ] {
            #expect(CBOREncoder.canonical(.unsigned(n)) == BinaryText.hex(hex))
        }
        #expect(CBOREncoder.canonical(.negative(UInt64.max)) == BinaryText.hex("3bffffffffffffffff"))
    }

    @Test func mapsAreSortedAndIndefiniteBecomesDefinite() {
        let value = CBORValue.map(
            [CBORMapEntry(.text("b"), .unsigned(1)), CBORMapEntry(.unsigned(10), .indefiniteBytes([[1], [2]]))],
            indefinite: true)
        #expect(CBOREncoder.canonical(value) == BinaryText.hex("a20a4201026162 01".replacingOccurrences(of: " ", with: "")))
    }

    @Test func diagnosticForms() {
        #expect(CBORValue.float(1e300).diagnostic == "1.0e+300")
        #expect(CBORValue.float(-0.0).diagnostic == "-0.0")
        #expect(CBORValue.indefiniteBytes([]).diagnostic == "''_")
        #expect(CBORValue.array([], indefinite: true).diagnostic == "[_ ]")
        #expect(CBORValue.text("a\"\\\u{1}").diagnostic == "\"a\\\"\\\\\\u0001\"")
        #expect(CBORValue.negative(UInt64.max).diagnostic == "-18446744073709551616")
    }

    @Test func integerAccessorReportsOverflow() throws {
        #expect(try CBORValue.negative(0).int64Value() == -1)
        #expect(try CBORValue.int(Int64.min).int64Value() == Int64.min)
        #expect(throws: CBORError.self) { try CBORValue.negative(UInt64(Int64.max) + 1).int64Value() }
        #expect(throws: CBORError.self) { try CBORValue.unsigned(UInt64.max).int64Value() }
    }
}
