import ConformanceKit
import VectorContract
import Foundation
import StrictCBOR
import Testing
import TestSupport
import TrustSuiteSupport

/// The IETF CBOR working group's vectors (`cbor-wg/`, 1,381 tests) as
/// spec/cbor.md (round 3) has them processed: each test decoded in
/// `wellFormed` mode with `tagValidity` on and `maxDepth` 512; a test that
/// fails must be refused, any other must decode to its `decoded` item (in
/// the CBOR data model) and, unless `roundtrip` is false, re-encode to its
/// bytes. What the canonical encoder cannot re-encode by design, and what
/// the default options decide otherwise, is listed in
/// `Tests/Expectations/cbor-wg.json` with reasons, and checked to be exact.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: WorkingGroupVectors.folder.path),
        Comment(
            rawValue:
                "the CBOR working group's vectors are not at \(WorkingGroupVectors.folder.path): set TRUSTSUITE_EXTERNAL_VECTORS to the shared/vectors folder"
        )))
struct WorkingGroupTests {
    struct Listed: Decodable, Sendable {
        let file: String
        let index: Int
        /// `tagContent` or `depth` for the default-option disagreements.
        let kind: String?
        let reason: String
        var key: String { "\(file) #\(index)" }
    }

    struct Expectations: Decodable, Sendable {
        let roundTripsNotMadeByDesign: [Listed]
        let defaultOptionDisagreements: [Listed]
    }

    static let expectations: Expectations? = {
        let url = Locations.packageRoot.appendingPathComponent("Tests/Expectations/cbor-wg.json")
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Expectations.self, from: data)
    }()

    static var noRoundTrip: Set<String> { Set((expectations?.roundTripsNotMadeByDesign ?? []).map(\.key)) }
    static var defaultDisagrees: Set<String> { Set((expectations?.defaultOptionDisagreements ?? []).map(\.key)) }

    /// The decoder the working group's processing asks for.
    static let checked = CBORDecoder(mode: .wellFormed, limits: CBORLimits(maxDepth: 512), tagValidity: true)

    @Test func everyTestIsRead() throws {
        let cases = WorkingGroupVectors.cases
        #expect(cases.count == 1_381)
        var perFile: [String: Int] = [:]
        for c in cases { perFile[c.file.components(separatedBy: "/").first ?? "", default: 0] += 1 }
        #expect(perFile == ["rfc8949": 135, "rfc8949-appendixA": 81, "spike": 1_165])
        #expect(cases.filter(\.fail).count == 47)
        #expect(Self.expectations != nil, "Tests/Expectations/cbor-wg.json is missing or malformed")
    }

    @Test(arguments: WorkingGroupVectors.cases)
    func withTagValidityAndDepth512(_ c: WorkingGroupCase) throws {
        let result = Result { () throws(CBORError) in try Self.checked.decode(c.encoded) }
        if c.fail {
            #expect(throws: CBORError.self, "\(c.summary)") { try result.get() }
            return
        }
        let item = try result.get()
        if let decoded = c.decoded {
            let difference = CBORDataModel.difference(item, decoded)
            #expect(difference == nil, "\(c.summary): \(difference ?? "")")
        }
        if c.roundtrip && !Self.noRoundTrip.contains(c.key) {
            #expect(BinaryText.hex(CBOREncoder.canonical(item)) == BinaryText.hex(c.encoded), "\(c.summary)")
        }
    }

    /// With the default options the verdict differs exactly on the listed cases.
    @Test(arguments: WorkingGroupVectors.cases)
    func withDefaultOptions(_ c: WorkingGroupCase) {
        let accepted = (try? CBORDecoder().decode(c.encoded)) != nil
        let agrees = accepted != c.fail
        #expect(
            agrees != Self.defaultDisagrees.contains(c.key),
            "\(c.summary): default options \(accepted ? "accept" : "refuse") it")
    }

    /// The listed round trips really are not made, and each entry names a test and a reason.
    @Test func listsAreExact() throws {
        let expectations = try #require(Self.expectations)
        let byKey = Dictionary(WorkingGroupVectors.cases.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for listed in expectations.roundTripsNotMadeByDesign {
            let c = try #require(byKey[listed.key], "\(listed.key) is not a test")
            #expect(!listed.reason.isEmpty)
            #expect(c.roundtrip && !c.fail, "\(listed.key) asks for no round trip")
            let item = try Self.checked.decode(c.encoded)
            #expect(CBOREncoder.canonical(item) != c.encoded, "\(listed.key) now round-trips: drop it from the list")
        }
        // The default options differ only where tag content is checked or
        // the nesting passes the default limit: each listed case is refused
        // for exactly that reason (by the option, or by the default limit).
        for listed in expectations.defaultOptionDisagreements {
            let c = try #require(byKey[listed.key], "\(listed.key) is not a test")
            #expect(!listed.reason.isEmpty)
            switch listed.kind {
            case "tagContent":
                #expect(throws: CBORError(.invalidTagContent, at: 0)) { try CBORDecoder(tagValidity: true).decode(c.encoded) }
            case "depth":
                let error = try #require(throws: CBORError.self) { try CBORDecoder().decode(c.encoded) }
                #expect(error.code == .depthLimitExceeded)
            default:
                Issue.record("\(listed.key): kind must be tagContent or depth, not \(listed.kind ?? "absent")")
            }
        }
    }
}
