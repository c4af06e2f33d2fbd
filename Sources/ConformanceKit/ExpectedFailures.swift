import ConformanceReports
import Foundation
import Synchronization
import TrustSuiteSupport
import VectorContract

/// A third party's list of known failures (`trustsuite run --expected FILE`,
/// docs/vectors.md, Amendments (round 3)): `{"vector id or glob": "reason"}`.
/// A run passes when every finding (fail, wrong reason, error) is listed and
/// no entry is stale: a listed vector that now passes is reported, so the
/// list shrinks as the implementation is fixed and CI goes red when its
/// behaviour changes either way.
///
/// A glob never covers a critical finding (a crash, hang or silence on a
/// network input) nor an accepted invalid input: only an entry naming its
/// id does (`{"*": …}` silenced every critical one, issue 44, and every
/// accepted invalid one, issue 52). Ids are looked up, not matched one by one: a check
/// costs vectors × (1 + globs), not vectors × entries.
public struct ExpectedFailures: Sendable {
    /// Largest expected file read.
    static let maxFileBytes = 4 * 1024 * 1024

    public struct Entry: Sendable, Hashable {
        /// A vector id, or a glob over ids (`*`, `?`, `[…]`).
        public let pattern: String
        public let reason: String
        public var isGlob: Bool { pattern.contains(where: { "*?[".contains($0) }) }

        public func matches(_ id: String) -> Bool {
            ExpectedFailures.comparisons?.count.add(1, ordering: .relaxed)
            return isGlob ? fnmatch(pattern, id, 0) == 0 : pattern == id
        }
    }

    /// Counts ``Entry/matches(_:)`` calls made in a task (tests: a lookup
    /// compares an id with the globs alone, never with every entry).
    package final class ComparisonCounter: Sendable {
        package let count = Atomic<Int>(0)
        package init() {}
    }
    @TaskLocal package static var comparisons: ComparisonCounter?

    public let path: String
    /// In the order of their patterns.
    public let entries: [Entry]
    /// The indices in ``entries`` of each exact id's entries, and of the globs.
    private let exact: [String: [Int]]
    private let globs: [Int]

    public init(path: String, entries: [Entry]) {
        self.path = path
        self.entries = entries.sorted { $0.pattern < $1.pattern }
        var exact: [String: [Int]] = [:]
        var globs: [Int] = []
        for (index, entry) in self.entries.enumerated() {
            if entry.isGlob { globs.append(index) } else { exact[entry.pattern, default: []].append(index) }
        }
        self.exact = exact
        self.globs = globs
    }

    /// The entry that lists vector `id`: the one naming it, else the first
    /// glob (in pattern order) that matches it — never a glob for a
    /// `critical` finding. A dictionary lookup plus one match per glob, never
    /// a pass over every entry (TrustSuiteTesting asks once per vector:
    /// 121k entries made the cbor family take 286 s, issue 52).
    public func entry(listing id: String, critical: Bool = false) -> Entry? {
        if let index = exact[id]?.first { return entries[index] }
        guard !critical else { return nil }
        return globs.lazy.map { entries[$0] }.first { $0.matches(id) }
    }

    public static func load(_ path: String) throws(VectorLoadError) -> ExpectedFailures {
        try parse(try VectorLoadError.read(path, limit: maxFileBytes), path: path)
    }

    public static func parse(_ data: Data, path: String) throws(VectorLoadError) -> ExpectedFailures {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data), let object = root.objectValue else {
            throw VectorLoadError(path: path, "an expected-failures file is a JSON object {\"vector id or glob\": \"reason\"}")
        }
        var entries: [Entry] = []
        for (pattern, reason) in object {
            guard !pattern.isEmpty, let text = reason.stringValue else {
                throw VectorLoadError(path: path, "entry \"\(pattern.prefix(100))\": the reason must be a string")
            }
            entries.append(Entry(pattern: pattern, reason: text))
        }
        return ExpectedFailures(path: path, entries: entries)
    }

    /// How a run compares with the list.
    public struct Verdict: Sendable {
        /// Findings no entry lists.
        public let unlisted: [CaseResult]
        /// Entries whose vectors now pass: an id that passed, or a glob none
        /// of whose vectors is a finding any more (with the ids that passed).
        public let stale: [(entry: Entry, passed: [String])]
        /// Findings an entry lists.
        public let listed: [CaseResult]
        /// Entries that matched no vector of this run (another selection).
        public let notRun: [Entry]
        /// Critical findings, and invalid inputs accepted, that a glob
        /// matches but no entry names: among ``unlisted``, each needs an
        /// entry of its own id.
        public var globbedCritical: [CaseResult] = []
        /// How many times an entry was matched against an id by pattern:
        /// exact ids are looked up, so only the globs are tried on each case.
        package var patternTries = 0

        /// 0 when every finding is listed and no entry is stale, and
        /// something was graded; 1 otherwise.
        public func exitCode(graded: Int) -> Int32 { unlisted.isEmpty && stale.isEmpty && graded > 0 ? 0 : 1 }

        /// Lines for the terminal, after the scorecard.
        public func lines(path: String) -> [String] {
            var lines = [
                "Expected failures (\(path)): \(listed.count) listed, \(unlisted.count) not listed, "
                    + "\(stale.count) stale, \(notRun.count) matched no vector of this run"
            ]
            if !globbedCritical.isEmpty {
                lines.append(
                    "warning: \(globbedCritical.count) findings critical (a crash, hang or silence on a network input) "
                        + "or accepting an invalid input are matched only by a glob: a glob never covers either; list each by its id")
            }
            let globbed = Set(globbedCritical.map(\.vector.id))
            for result in unlisted {
                let kind = result.critical ? "critical" : "accepted invalid"
                let note = globbed.contains(result.vector.id) ? " (\(kind): a glob does not cover it)" : ""
                lines.append("   not listed: [\(result.grade.rawValue)] \(result.vector.id)\(note): \(result.message)")
            }
            for (entry, passed) in stale {
                lines.append(
                    "   stale: \"\(entry.pattern)\" (\(entry.reason)) — now passes: "
                        + passed.prefix(5).joined(separator: ", ") + (passed.count > 5 ? ", …" : ""))
            }
            return lines
        }
    }

    /// Longest reason written by ``file(from:)`` (the runner's account of a
    /// finding can quote a whole adapter reply).
    static let maxWrittenReason = 200

    /// An expected-failures file listing every finding of `report` (what
    /// ``check(_:)`` counts: fail, wrong reason, error), one vector id per
    /// line in id order, the grade and the runner's account as the reason
    /// (`trustsuite run --write-expected FILE`): review it, then gate on it.
    public static func file(from report: RunReport) -> String {
        var reasons: [String: String] = [:]
        for result in report.cases where result.grade.isFinding {
            reasons[result.vector.id] = String("\(result.grade.rawValue): \(result.message)".prefix(maxWrittenReason))
        }
        let lines = reasons.keys.sorted().map { id in
            "  " + JSONValue.string(id).jsonText + ": " + JSONValue.string(reasons[id] ?? "").jsonText
        }
        return lines.isEmpty ? "{}\n" : "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    public func check(_ report: RunReport) -> Verdict {
        // Entries by exact id (built once, in init); globs tried one by one (they are few).
        var matchedAny = [Bool](repeating: false, count: entries.count)
        var matchedFinding = [Bool](repeating: false, count: entries.count)
        var passed = [[String]](repeating: [], count: entries.count)
        var unlisted: [CaseResult] = []
        var listed: [CaseResult] = []
        var globbedCritical: [CaseResult] = []
        var patternTries = 0
        for result in report.cases {
            let id = result.vector.id
            let byId = exact[id] ?? []
            let byGlob = globs.filter { entries[$0].matches(id) }
            patternTries += globs.count
            for index in byId + byGlob {
                matchedAny[index] = true
                if result.grade.isFinding { matchedFinding[index] = true }
                if result.grade == .pass { passed[index].append(id) }
            }
            guard result.grade.isFinding else { continue }
            // A glob never covers the two worst kinds: each needs its own id.
            if !byId.isEmpty || (!byGlob.isEmpty && !result.critical && !result.acceptedInvalid) {
                listed.append(result)
            } else {
                unlisted.append(result)
                if !byGlob.isEmpty { globbedCritical.append(result) }
            }
        }
        var stale: [(entry: Entry, passed: [String])] = []
        var notRun: [Entry] = []
        for (index, entry) in entries.enumerated() {
            guard matchedAny[index] else {
                notRun.append(entry)
                continue
            }
            if !passed[index].isEmpty && !matchedFinding[index] { stale.append((entry, passed[index])) }
        }
        return Verdict(
            unlisted: unlisted, stale: stale, listed: listed, notRun: notRun, globbedCritical: globbedCritical,
            patternTries: patternTries)
    }
}
