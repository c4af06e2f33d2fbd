import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// A matrix compared with an earlier one (`trustsuite matrix --baseline
/// OLD.json`, docs/vectors.md, Amendments (round 3)): new disagreements,
/// fixed ones, and each implementation's changed outcomes; an outcome that
/// moved up ``rank(_:)`` made the implementation worse.
public struct MatrixBaseline: Sendable {
    /// Largest baseline read (a full matrix is a few MiB).
    static let maxFileBytes = 256 * 1024 * 1024

    public struct Change: Sendable, Hashable {
        public let implementation: String
        public let id: String
        public let old: String
        public let new: String
        public let worse: Bool
    }

    public let newDisagreements: [String]
    public let fixedDisagreements: [String]
    public let changes: [Change]
    /// Implementations of the baseline not in this matrix, and the other way round.
    public let dropped: [String]
    public let added: [String]

    /// Any implementation got worse on any vector.
    public var gotWorse: Bool { changes.contains(where: \.worse) }

    /// How bad an outcome is: pass, then unsupported (no longer running a
    /// vector counts against an implementation), wrong reason, wrong answer,
    /// rejected valid, error, accepted invalid, critical (a crash on a network input).
    public static func rank(_ outcome: String) -> Int {
        ["pass", "unsupported", "wrongReason", "wrongAnswer", "rejectedValid", "error", "acceptedInvalid", "critical"]
            .firstIndex(of: outcome) ?? 0
    }

    public static func load(_ path: String, against matrix: Matrix) throws(VectorLoadError) -> MatrixBaseline {
        try Earlier.read(path).compare(with: matrix)
    }

    /// An earlier matrix, read and checked before a run starts (`matrix
    /// --baseline` refuses a bad file up front, not after every adapter ran).
    public struct Earlier: Sendable {
        let outcomes: [String: [String: String]]
        let disagreements: Set<String>
        let names: Set<String>

        public static func read(_ path: String) throws(VectorLoadError) -> Earlier {
            let (outcomes, disagreements, names) = try MatrixBaseline.read(path)
            return Earlier(outcomes: outcomes, disagreements: disagreements, names: names)
        }

        public func compare(with matrix: Matrix) -> MatrixBaseline {
            MatrixBaseline.compare(oldOutcomes: outcomes, oldDisagreements: disagreements, oldNames: names, with: matrix)
        }
    }

    static func read(_ path: String) throws(VectorLoadError)
        -> (outcomes: [String: [String: String]], disagreements: Set<String>, names: Set<String>)
    {
        let data = try VectorLoadError.read(path, limit: maxFileBytes)
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data),
            root["schema"]?.stringValue == "trustsuite-matrix/1", let rows = root["rows"]?.arrayValue
        else {
            throw VectorLoadError(path: path, "not a matrix written by `trustsuite matrix --json` (schema trustsuite-matrix/1)")
        }
        var oldOutcomes: [String: [String: String]] = [:]
        var oldDisagreements = Set<String>()
        var oldNames = Set<String>()
        for row in rows {
            guard let id = row["id"]?.stringValue, let results = row["results"]?.objectValue else {
                throw VectorLoadError(path: path, "a row without \"id\" or \"results\"")
            }
            if row["disagreement"]?.boolValue == true { oldDisagreements.insert(id) }
            for (name, cell) in results {
                oldNames.insert(name)
                if let outcome = cell["outcome"]?.stringValue { oldOutcomes[id, default: [:]][name] = outcome }
            }
        }
        return (oldOutcomes, oldDisagreements, oldNames)
    }

    static func compare(
        oldOutcomes: [String: [String: String]], oldDisagreements: Set<String>, oldNames: Set<String>,
        with matrix: Matrix
    ) -> MatrixBaseline {
        var changes: [Change] = []
        var newDisagreements: [String] = []
        var fixed: [String] = []
        for row in matrix.rows {
            let id = row.vector.id
            if row.disagreement && !oldDisagreements.contains(id) && oldOutcomes[id] != nil { newDisagreements.append(id) }
            if !row.disagreement && oldDisagreements.contains(id) { fixed.append(id) }
            for (column, outcome) in zip(matrix.columns, row.outcomes) {
                guard let old = oldOutcomes[id]?[column.name], old != outcome.rawValue else { continue }
                changes.append(
                    Change(
                        implementation: column.name, id: id, old: old, new: outcome.rawValue,
                        worse: rank(outcome.rawValue) > rank(old)))
            }
        }
        let names = Set(matrix.columns.map(\.name))
        return MatrixBaseline(
            newDisagreements: newDisagreements, fixedDisagreements: fixed, changes: changes,
            dropped: oldNames.subtracting(names).sorted(), added: names.subtracting(oldNames).sorted())
    }

    /// The comparison for the terminal.
    public func lines(path: String, maxListed: Int = 50) -> [String] {
        var lines = [
            "Against the baseline \(path): \(newDisagreements.count) new disagreements, "
                + "\(fixedDisagreements.count) fixed, \(changes.count) changed outcomes "
                + "(\(changes.filter(\.worse).count) worse)"
        ]
        for id in newDisagreements.prefix(maxListed) { lines.append("   new disagreement: \(id)") }
        for id in fixedDisagreements.prefix(maxListed) { lines.append("   fixed disagreement: \(id)") }
        let byImplementation = Dictionary(grouping: changes, by: \.implementation)
        for name in byImplementation.keys.sorted() {
            let mine = byImplementation[name] ?? []
            lines.append("   \(TerminalText.escape(name)): \(mine.count) changed, \(mine.filter(\.worse).count) worse")
            for change in mine.sorted(by: { $0.worse && !$1.worse }).prefix(maxListed) {
                lines.append("     \(change.worse ? "WORSE" : "better") \(change.id): \(change.old) → \(change.new)")
            }
        }
        for name in dropped { lines.append("   \(TerminalText.escape(name)): in the baseline, not in this matrix") }
        for name in added { lines.append("   \(TerminalText.escape(name)): new, not in the baseline") }
        return lines
    }
}
