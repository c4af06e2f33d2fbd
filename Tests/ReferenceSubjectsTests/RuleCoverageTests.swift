import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// Every rule id of the SecItem rule book (§2–§5) that a trace can show is
/// the flag of at least one vector, whose note cites it; the ids no trace can
/// show are listed, with why, in docs/models/secitem.md.
@Suite struct RuleCoverageTests {
    /// The rule book's ids, §2–§5.
    static let ruleIDs: [String] = {
        let ranges: [(String, Int)] = [("P", 3), ("Q", 16), ("A", 13), ("U", 6), ("D", 4), ("K", 4), ("AC", 10), ("LA", 12)]
        return ranges.flatMap { prefix, count in (1...count).map { "\(prefix)\($0)" } }
    }()

    /// The ids docs/models/secitem.md lists under "rules-without-traces".
    static func untraceable() throws -> Set<String> {
        let text = try String(contentsOf: Checkout.path("docs", "models", "secitem.md"), encoding: .utf8)
        guard let marker = text.range(of: "<!-- rules-without-traces") else { return [] }
        var ids = Set<String>()
        for line in text[marker.upperBound...].split(separator: "\n") where line.hasPrefix("- ") {
            if let id = line.dropFirst(2).split(separator: ":").first { ids.insert(String(id)) }
        }
        return ids
    }

    @Test(arguments: ruleIDs)
    func everyTraceableRuleHasAVectorCitingIt(_ id: String) throws {
        let files = try FixtureVectors.loaded.get()
        let flagged = files.contains { file in file.vectors.contains { $0.flags.contains(id) } }
        let excused = try Self.untraceable().contains(id)
        #expect(
            flagged != excused,
            flagged
                ? "\(id) has vectors, yet docs/models/secitem.md says no trace can show it"
                : "\(id): no vector flags it, and docs/models/secitem.md does not say why no trace can show it")
        if flagged {
            let noted = files.contains { file in
                file.vectors.contains { $0.flags.contains(id) } && (file.notes[id]?.contains(id) ?? false)
            }
            #expect(noted, "\(id): the files that flag it must say in the note what the rule is, citing \(id)")
        }
    }
}
