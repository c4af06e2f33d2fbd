import AppAttest
import VectorContract
import Foundation
import TrustSuiteSupport

/// Accumulates the tests of one `trustsuite-vectors/1` file and renders it.
struct VectorFileBuilder {
    let family: Family
    let title: String
    let source: String
    /// Notes besides those of the flags (``FlagNotes`` gives those).
    var notes: [String: String] = [:]
    /// Every flag a test of the file carries.
    private var flagsUsed = Set<String>()
    private var groups: [(comment: String, defaults: [String: JSONValue], tests: [JSONValue])] = []
    private var count = 0

    init(family: Family, title: String, source: String) {
        self.family = family
        self.title = title
        self.source = source
    }

    mutating func group(_ comment: String, defaults: [String: JSONValue] = [:]) {
        groups.append((comment, defaults, []))
    }

    /// Adds a test to the current group; `tcId`s run from 1 in file order.
    /// An App Attest test carries its `attack` (``AttackRule``).
    mutating func add(
        id: String, comment: String, flags: [String] = [], input: [String: JSONValue],
        error: AppAttestError.Code? = nil, output: [String: JSONValue]? = nil, acceptable: Bool = false
    ) {
        if groups.isEmpty { group("") }
        count += 1
        let flags = flags + FlagNotes.knownBugFlags(id: id, error: error).filter { !flags.contains($0) }
        flagsUsed.formUnion(flags)
        var test: [String: JSONValue] = [
            "tcId": .int(Int64(count)), "id": .string(id), "comment": .string(comment),
            "flags": .array(flags.map(JSONValue.string)), "input": .object(input),
            "result": .string(acceptable ? "acceptable" : error == nil ? "valid" : "invalid"),
        ]
        if let error { test["error"] = .string(error.rawValue) }
        if let output { test["output"] = .object(output) }
        if let attack = AttackRule.attack(family: family, id: id, error: error) { test["attack"] = .string(attack) }
        groups[groups.count - 1].tests.append(.object(test))
    }

    /// The flag of the anchors-removed copies.
    static let anchorsRemoved = FlagNotes.anchorsRemoved

    /// A group holding a copy of every test so far that is not invalid and
    /// names its anchors, without them (Apple's roots apply), refused with
    /// `code` (docs/vectors.md, "App Attest vectors any verifier can run
    /// (round 3)": the test anchor removed). Ids gain `-anchors-removed`
    /// after the family prefix.
    mutating func addAnchorsRemoved(code: AppAttestError.Code, prefix: String) {
        let anchorFields = ["trustAnchorsPem", "receiptTrustAnchorsPem"]
        let sources = groups.flatMap(\.tests).filter { test in
            let flags = (test["flags"]?.arrayValue ?? []).compactMap(\.stringValue)
            return test["result"]?.stringValue != "invalid"
                && test["input"]?.objectValue?.keys.contains { anchorFields.contains($0) } == true
                && FlagNotes.refusedBeforeTheChain.isDisjoint(with: flags) && !flags.contains(FlagNotes.hostTrustStore)
        }
        group(
            "The test anchors removed: each test above that is not invalid, without trustAnchorsPem and receiptTrustAnchorsPem, "
                + "so Apple's roots apply and the suite's test chain must be refused")
        for test in sources {
            guard let id = test["id"]?.stringValue, let input = test["input"]?.objectValue, id.hasPrefix(prefix + "-") else { continue }
            let flags = (test["flags"]?.arrayValue ?? []).compactMap(\.stringValue).filter { !FlagNotes.acceptableFlags.contains($0) }
            add(
                id: prefix + "-anchors-removed" + id.dropFirst(prefix.count),
                comment: "without its test anchors: \(test["comment"]?.stringValue ?? "")",
                flags: flags + [Self.anchorsRemoved], input: input.filter { !anchorFields.contains($0.key) }, error: code)
        }
    }

    var numberOfTests: Int { count }

    func render() throws -> Data {
        let root: JSONValue = .object([
            "schema": .string(VectorFile.schema), "family": .string(family.rawValue), "title": .string(title),
            "source": .string(source),
            "notes": .object(notes.mapValues(JSONValue.string).merging(FlagNotes.notes(for: flagsUsed)) { _, flag in flag }),
            "numberOfTests": .int(Int64(count)),
            "testGroups": .array(
                groups.map { group in
                    .object(["comment": .string(group.comment), "defaults": .object(group.defaults), "tests": .array(group.tests)])
                }),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(root) + Data("\n".utf8)
    }
}

extension JSONValue {
    static func b64(_ bytes: [UInt8]) -> JSONValue { .string(Data(bytes).base64EncodedString()) }
}
