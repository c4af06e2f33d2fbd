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
        let ranges: [(String, Int)] = [("P", 3), ("Q", 16), ("A", 13), ("U", 6), ("D", 4), ("K", 5), ("AC", 10), ("LA", 12)]
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

    /// The rows of the rule book's §9, "Amendments (round 5)", each with the
    /// flag its vectors carry (A13′ is flagged A13, K1′ K1, Q13′ Q13, Q15′ Q15).
    static let amendments: [(row: String, flag: String)] = [
        ("Q6", "Q6"), ("Q7", "Q7"), ("Q8", "Q8"), ("A4", "A4"), ("Q9", "Q9"), ("Q12", "Q12"), ("A7", "A7"), ("A8", "A8"),
        ("A10", "A10"), ("A11", "A11"), ("A12", "A12"), ("A13′", "A13"), ("U6", "U6"), ("AC7", "AC7"), ("K5", "K5"),
        ("K1′", "K1"), ("Q15′", "Q15"), ("Q13′", "Q13"), ("LA2", "LA2"), ("LA3", "LA3"), ("LA5", "LA5"),
    ]

    /// Every §9 row has a vector that shows it, whose comment says what
    /// changed in round 5, and the flag's note cites the amendment.
    @Test(arguments: amendments.map { "\($0.row)=\($0.flag)" })
    func everyAmendedRowHasAVectorThatSaysSo(_ pair: String) throws {
        let parts = pair.split(separator: "=").map(String.init)
        let (row, flag) = (parts[0], parts[parts.count - 1])
        let files = try FixtureVectors.loaded.get()
        let changed = files.flatMap { file in file.vectors.filter { $0.flags.contains(flag) && $0.comment.contains("round 5") } }
        #expect(!changed.isEmpty, "\(row): no vector flagged \(flag) says what changed in round 5")
        let cited = files.contains { file in
            (file.notes[flag]?.contains("Round 5") ?? false) || (file.notes[flag]?.contains("round 5") ?? false)
        }
        #expect(cited, "\(row): the note of \(flag) must cite the round-5 amendment (rule book §9)")
        if row.hasSuffix("′") {
            #expect(files.contains { $0.notes[flag]?.contains(row) ?? false }, "\(row) is named in the note of \(flag)")
        }
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
