import AppAttest
import ConformanceKit
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
        groups[groups.count - 1].tests.append(.object(test))
    }

    var numberOfTests: Int { count }

    func render() throws -> Data {
        let root: JSONValue = .object([
            "schema": .string(VectorFile.schema), "family": .string(family.rawValue), "title": .string(title),
            "source": .string(source),
            "notes": .object(notes.mapValues(JSONValue.string).merging(FlagNotes.notes(for: flagsUsed)) { _, flag in flag }),
            "numberOfTests": .int(Int64(count)),
            "testGroups": .array(groups.map { group in
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
