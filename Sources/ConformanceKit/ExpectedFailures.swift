import ConformanceReports
import Foundation
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
/// network input): only an entry naming its id does (`{"*": …}` silenced
/// every one, issue 44). Ids are looked up, not matched one by one: a check
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
            isGlob ? fnmatch(pattern, id, 0) == 0 : pattern == id
        }
    }

    public let path: String
    /// In the order of their patterns.
    public let entries: [Entry]

    public init(path: String, entries: [Entry]) {
        self.path = path
        self.entries = entries.sorted { $0.pattern < $1.pattern }
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
        /// Critical findings a glob matches but no entry names: among
        /// ``unlisted``, each needs an entry of its own id.
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
                    "warning: \(globbedCritical.count) critical findings (a crash, hang or silence on a network input) "
                        + "are matched only by a glob: a glob never covers a critical finding; list each by its id")
            }
            let globbed = Set(globbedCritical.map(\.vector.id))
            for result in unlisted {
                let note = globbed.contains(result.vector.id) ? " (critical: a glob does not cover it)" : ""
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
        // Entries by exact id; globs tried one by one (they are few).
        var exact: [String: [Int]] = [:]
        var globs: [Int] = []
        for (index, entry) in entries.enumerated() {
            if entry.isGlob { globs.append(index) } else { exact[entry.pattern, default: []].append(index) }
        }
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
            if !byId.isEmpty || (!byGlob.isEmpty && !result.critical) {
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
