import ConformanceKit
import VectorContract
import Foundation
import StrictCBOR
import Testing
import TestSupport
import TrustSuiteSupport

/// RFC 8949 Appendix A, from the external conformance data
/// (`cbor/rfc8949-appendix-a.json`): every entry decodes to its `decoded`
/// value or `diagnostic` and re-encodes byte for byte where `roundtrip` is
/// set; `f818` is not well-formed under RFC 8949 §3.3 and must be rejected.
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct AppendixATests {
    struct Entry: Decodable, Sendable, CustomStringConvertible {
        let hex: String
        let roundtrip: Bool
        let decoded: Expected?
        let diagnostic: String?
        var description: String { hex }
    }

    static let entries: [Entry] = {
        guard let data = Locations.external("cbor/rfc8949-appendix-a.json") else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }()

    @Test func allEntriesPresent() {
        #expect(Self.entries.count == 82)
    }

    @Test(arguments: entries)
    func entry(_ entry: Entry) throws {
        let bytes = try #require(BinaryText.hex(entry.hex))
        if entry.hex == "f818" {
            #expect(throws: CBORError(.invalidSimpleValue, at: 0)) { try CBORDecoder().decode(bytes) }
            return
        }
        let value = try CBORDecoder(mode: .wellFormed).decode(bytes)
        if let diagnostic = entry.diagnostic {
            #expect(value.diagnostic == diagnostic)
        }
        if let decoded = entry.decoded {
            #expect(decoded.matches(try value.value), "decoded \(value.diagnostic)")
        }
        if entry.roundtrip {
            #expect(CBOREncoder.canonical(value) == bytes)
        }
    }
}

extension CBORError {
    init(_ code: Code, at offset: Int) { self.init(code, at: offset, "") }
}

/// A JSON value from the Appendix A file, with numbers kept both as an exact
/// Decimal (for integers up to ±2^64 and beyond) and as a Double (for floats).
indirect enum Expected: Decodable, Sendable {
    case null, bool(Bool), number(Decimal?, Double), string(String), array([Expected]), object([String: Expected])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(try? c.decode(Decimal.self), d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([Expected].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: Expected].self))
        }
    }

    /// Compares by the CBOR item's type: integers and bignums (tags 2 and 3)
    /// exactly, floats as Doubles including the sign of zero.
    func matches(_ value: CBORValue) -> Bool {
        switch (self, value) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let exact?, _), .unsigned(let n)): return exact == Decimal(n)
        case (.number(let exact?, _), .negative(let n)): return exact == -1 - Decimal(n)
        case (.number(let exact?, _), .tag(2, .bytes(let b))): return exact == Self.magnitude(b)
        case (.number(let exact?, _), .tag(3, .bytes(let b))): return exact == -1 - Self.magnitude(b)
        case (.number(_, let d), .float(let f)): return d == f && d.sign == f.sign
        case (.string(let s), _): return value.textValue == s
        case (.array(let a), .array(let items, _)):
            return a.count == items.count && zip(a, items).allSatisfy { $0.matches($1) }
        case (.object(let o), .map(let entries, _)):
            return o.count == entries.count
                && entries.allSatisfy { entry in
                    guard let key = entry.key.textValue, let want = o[key] else { return false }
                    return want.matches(entry.value)
                }
        default: return false
        }
    }

    static func magnitude(_ bytes: [UInt8]) -> Decimal {
        bytes.reduce(Decimal(0)) { $0 * 256 + Decimal($1) }
    }
}
