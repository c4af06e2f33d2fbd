import ConformanceKit
import VectorContract
import StrictCBOR
import Testing
import TrustSuiteSupport

/// The `tagValidity` option (spec/cbor.md, round 3; RFC 8949 §3.4, §5.3.2):
/// each listed tag with content of the right and the wrong type, the
/// error's offset (the tag's head) and its place in reading order, and the
/// default, which passes every tag through.
@Suite struct TagValidityTests {
    struct Case: Sendable, CustomStringConvertible {
        let hex: String
        /// Offset of the invalid tag's head; nil when the content is valid.
        let invalidAt: Int?
        /// Modes the input is otherwise valid in (indefinite lengths: wellFormed only).
        let modes: [CBORMode]
        var description: String { hex }

        init(_ hex: String, invalidAt: Int? = nil, wellFormedOnly: Bool = false) {
            self.hex = hex
            self.invalidAt = invalidAt
            self.modes = wellFormedOnly ? [.wellFormed] : [.wellFormed, .deterministic]
        }
    }

    /// A text string's encoding, in hex.
    static func text(_ s: String) -> String { BinaryText.hex(CBOREncoder.canonical(.text(s))) }

    static let cases: [Case] = [
        // 0: RFC 3339 date-time text (upper-case T and Z, RFC 4287 §3.3).
        Case("c0" + text("2013-03-21T20:04:00Z")),
        Case("c0" + text("2013-03-21T20:04:00.5Z")),
        Case("c0" + text("2016-02-29T23:59:60+01:00")),
        Case("c07f" + text("2013-03-21") + text("T20:04:00Z") + "ff", wellFormedOnly: true),
        Case("c0" + text("2013-03-21"), invalidAt: 0),
        Case("c0" + text("20:04:00Z"), invalidAt: 0),
        Case("c0" + text("2013-03-21t20:04:00z"), invalidAt: 0),
        Case("c0" + text("2013-03-21 20:04:00Z"), invalidAt: 0),
        Case("c0" + text("2013-13-21T20:04:00Z"), invalidAt: 0),
        Case("c0" + text("2015-02-29T20:04:00Z"), invalidAt: 0),
        Case("c0" + text("2013-03-21T24:00:00Z"), invalidAt: 0),
        Case("c0" + text("2013-03-21T20:04:00"), invalidAt: 0),
        Case("c000", invalidAt: 0),
        Case("c0a1616100", invalidAt: 0),
        Case("c04100", invalidAt: 0),
        // 1: integer or float.
        Case("c11a514b67b0"), Case("c13a514b67af"), Case("c1fb41d452d9ec200000"), Case("c1f97e00"),
        Case("c1" + text("2013"), invalidAt: 0),
        Case("c1a1616100", invalidAt: 0),
        Case("c1f5", invalidAt: 0),
        Case("c1c24101", invalidAt: 0),
        // 2, 3: byte string.
        Case("c240"), Case("c249010000000000000000"), Case("c3420100"), Case("c25f4101ff", wellFormedOnly: true),
        Case("c200", invalidAt: 0), Case("c360", invalidAt: 0), Case("c280", invalidAt: 0),
        // 4, 5: [integer exponent, integer or bignum mantissa].
        Case("c48221196ab3"), Case("c5820003"), Case("c4822038ff"), Case("c48201c24101"), Case("c58201c34100"),
        Case("c49f2003ff", wellFormedOnly: true),
        Case("c480", invalidAt: 0), Case("c48101", invalidAt: 0), Case("c483010203", invalidAt: 0),
        Case("c482f93c0001", invalidAt: 0), Case("c48201f93c00", invalidAt: 0), Case("c482c2410101", invalidAt: 0),
        Case("c48201c601", invalidAt: 0), Case("c5a0", invalidAt: 0), Case("c400", invalidAt: 0),
        // 21–23: any content.
        Case("d5a0"), Case("d680"), Case("d76161"), Case("d700"),
        // 24: a byte string holding exactly one well-formed item.
        Case("d8184100"), Case("d818456449455446"), Case("d818428100"),
        Case("d81800", invalidAt: 0), Case("d81840", invalidAt: 0), Case("d81841ff", invalidAt: 0),
        Case("d818420000", invalidAt: 0), Case("d818411c", invalidAt: 0), Case("d8184262c3", invalidAt: 0),
        // 32, 33, 34, 36: text.
        Case("d820" + text("http://a.example/")), Case("d821" + text("aGk")), Case("d822" + text("aGk=")),
        Case("d824" + text("MIME-Version: 1.0")),
        Case("d82000", invalidAt: 0), Case("d8214100", invalidAt: 0), Case("d82240", invalidAt: 0), Case("d824a0", invalidAt: 0),
        // Other tags pass; a check applies wherever the tag sits.
        Case("d82300"), Case("d9d9f700"), Case("c600"), Case("dbffffffffffffffff00"),
        Case("d5c000", invalidAt: 1), Case("8201c100", invalidAt: nil), Case("820fc1" + text("x"), invalidAt: 2),
        Case("a1c00000", invalidAt: 1),
        Case("c1c100", invalidAt: 0),
    ]

    @Test(arguments: cases)
    func tagContent(_ c: Case) throws {
        let bytes = try #require(BinaryText.hex(c.hex))
        for mode in c.modes {
            // Without the option every tag passes.
            _ = try CBORDecoder(mode: mode).decode(bytes)
            let checked = CBORDecoder(mode: mode, tagValidity: true)
            if let offset = c.invalidAt {
                #expect(throws: CBORError(.invalidTagContent, at: offset), "\(mode)") { try checked.decode(bytes) }
            } else {
                _ = try checked.decode(bytes)
            }
        }
        // ctap2 bans tags before their content is looked at.
        let ctap2 = try #require(throws: CBORError.self) { try CBORDecoder(mode: .ctap2, tagValidity: true).decode(bytes) }
        #expect(ctap2.code == .tagNotAllowed)
    }

    /// Errors inside the content come first (reading order): the content
    /// is checked when it is finished.
    @Test func errorsInsideTheContentComeFirst() throws {
        let checked = CBORDecoder(tagValidity: true)
        #expect(throws: CBORError(.invalidUTF8, at: 1)) { try checked.decode(BinaryText.hex("c062c328") ?? []) }
        #expect(throws: CBORError(.truncated, at: 1)) { try checked.decode(BinaryText.hex("c0") ?? []) }
        #expect(throws: CBORError(.nonMinimalEncoding, at: 1)) {
            try CBORDecoder(mode: .deterministic, tagValidity: true).decode(BinaryText.hex("c11800") ?? [])
        }
    }

    /// Tag 24's inner item obeys the decoder's limits, and a chain of tag 24
    /// is checked in one extra pass per outermost payload (the inner pass
    /// checks no tag content).
    @Test func embeddedItemsUseTheLimits() throws {
        // 24(h'…'): 65 nested arrays inside, one more than the default limit.
        let deep: [UInt8] = [0xD8, 0x18, 0x58, 0x42] + Array(repeating: 0x81, count: 65) + [0x00]
        let checked = CBORDecoder(tagValidity: true)
        #expect(throws: CBORError(.invalidTagContent, at: 0)) { try checked.decode(deep) }
        var limits = CBORLimits()
        limits.maxDepth = 65
        _ = try CBORDecoder(limits: limits, tagValidity: true).decode(deep)
        // 24(h'd818 41 1c'): the inner tag 24 holds a reserved head, which only a check of the inner tag would see.
        _ = try checked.decode(BinaryText.hex("d81844d818411c") ?? [])
    }
}
