import VectorContract
import TrustSuiteSupport
import Foundation
import Synchronization

/// An adapter's `error-map.json` (docs/vectors.md, Amendments (round 3)):
/// an ordered list of `{"pattern": regex over the error text, "code": …}`.
/// The first pattern that matches an answer's `error` gives its code, for an
/// adapter whose library has error messages but no codes.
///
/// Matching has a bounded cost (issue 44 item 7: `(a+)+$` against 23
/// characters took 107–153 s over 146 vectors, NSRegularExpression being
/// ICU's backtracking matcher). Every match runs with `.reportProgress`,
/// whose callback ICU makes every 10,000 steps of the matcher (and once per
/// start position tried); a match that passes `maxStepsPerMatch` steps, or
/// `maxMatchTime`, is stopped and its pattern refused, with a message that
/// names it. A map is also refused when it is loaded if a pattern already
/// passes the bound on the short texts of `loadProbes` (runs of one
/// character and a character that breaks the run: what nested quantifiers
/// choke on), so the usual mistake is a one-line exit 2 before any adapter
/// starts.
public struct ErrorMap: Sendable {
    /// The file name the runner looks for beside an adapter's script.
    public static let fileName = "error-map.json"
    /// Largest map file read (a map is a few dozen lines).
    static let maxFileBytes = 1024 * 1024
    /// Most patterns in one map: each answer is matched against all of them.
    static let maxPatterns = 1000
    /// Most of an error text matched: adapters' texts are one line, and a
    /// bound keeps a pattern's cost per answer bounded.
    static let maxMatchedCharacters = 4096
    /// Most matcher steps one pattern may take on one error text. A linear
    /// pattern takes a few per character; a quadratic one such as
    /// `\w+ block` on a 4096-character word about 8 million (60 ms); a
    /// catastrophically backtracking one passes the bound in a few tenths
    /// of a second instead of running for minutes.
    static let maxStepsPerMatch = 20_000_000
    /// ICU calls the progress callback every this many steps (its
    /// `TIMER_INITIAL_VALUE`).
    static let stepsPerProgressCall = 10_000
    /// Wall-clock bound of one match: a backstop for steps that cost more
    /// than one comparison (a back-reference compares a whole group).
    static let maxMatchTime: Duration = .seconds(1)
    /// Length of the runs in `loadProbes`: 2^32 paths for `(a+)+$`.
    static let loadProbeLength = 32

    public struct Entry: Sendable {
        public let pattern: String
        public let code: String
        let regex: NSRegularExpression
    }

    public let path: String
    public let entries: [Entry]
    /// Entries refused during the run (their match passed the bound).
    private let refused = RefusedEntries()

    init(path: String, entries: [Entry]) {
        self.path = path
        self.entries = entries
    }

    /// Reads and compiles a map; throws a one-line reason.
    public static func load(_ path: String) throws(VectorLoadError) -> ErrorMap {
        try parse(try VectorLoadError.read(path, limit: maxFileBytes), path: path)
    }

    public static func parse(_ data: Data, path: String) throws(VectorLoadError) -> ErrorMap {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: data), let list = root.arrayValue else {
            throw VectorLoadError(path: path, "an error map is a JSON array of {\"pattern\": …, \"code\": …}")
        }
        guard list.count <= maxPatterns else { throw VectorLoadError(path: path, "more than \(maxPatterns) patterns") }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            guard let object = item.objectValue, Set(object.keys) == ["pattern", "code"],
                let pattern = object["pattern"]?.stringValue, let code = object["code"]?.stringValue, !code.isEmpty
            else {
                throw VectorLoadError(path: path, "entry \(index): must be {\"pattern\": regex, \"code\": error code}")
            }
            guard let regex = try? NSRegularExpression(pattern: pattern) else {
                throw VectorLoadError(path: path, "entry \(index): pattern \(pattern.prefix(100)) is not a regular expression")
            }
            let entry = Entry(pattern: pattern, code: code, regex: regex)
            for probe in loadProbes(pattern) where firstMatch(entry, in: probe) == .exceeded {
                throw VectorLoadError(path: path, "entry \(index): " + exceededReason(entry, textLength: probe.utf16.count))
            }
            entries.append(entry)
        }
        return ErrorMap(path: path, entries: entries)
    }

    /// The code of the first pattern found in `text`, or nil. Throws, naming
    /// the pattern, when a pattern tried before any match passes the match
    /// bound, now or earlier in the run (a refused pattern is not tried
    /// again): the answer's code cannot be known, and the case is graded
    /// `error` with that line.
    public func code(for text: String?) throws(AdapterError) -> String? {
        guard let text else { return nil }
        let bounded = String(text.prefix(Self.maxMatchedCharacters))
        for (index, entry) in entries.enumerated() {
            if let reason = refused.reason(index) { throw AdapterError(reason) }
            refused.countMatch()
            switch Self.firstMatch(entry, in: bounded) {
            case .match: return entry.code
            case .noMatch: continue
            case .exceeded:
                let reason =
                    "error map \(path): entry \(index): " + Self.exceededReason(entry, textLength: bounded.utf16.count)
                    + "; it is refused for the rest of the run"
                refused.refuse(index, reason)
                throw AdapterError(reason)
            }
        }
        return nil
    }

    /// How many patterns were matched against error texts by ``code(for:)``
    /// (a refused pattern is not matched again): a test's count of the work.
    package var matchesTried: Int { refused.matches }

    enum Outcome: Equatable { case match, noMatch, exceeded }

    /// Whether `entry` matches somewhere in `text`, within the bound.
    static func firstMatch(_ entry: Entry, in text: String) -> Outcome { match(entry, in: text).outcome }

    /// The progress calls ICU may make on a text of `length` UTF-16 units
    /// before a match is stopped: once per start position as well as every
    /// `stepsPerProgressCall` steps, so the positions are allowed on top.
    static func allowedProgressCalls(length: Int) -> Int { length + 1 + maxStepsPerMatch / stepsPerProgressCall }

    /// ``firstMatch(_:in:)`` with the progress calls ICU made: the steps the
    /// matcher took, in units of `stepsPerProgressCall`.
    static func match(_ entry: Entry, in text: String) -> (outcome: Outcome, progressCalls: Int) {
        let positions = text.utf16.count
        let allowedCalls = allowedProgressCalls(length: positions)
        let clock = ContinuousClock()
        let start = clock.now
        var calls = 0
        var outcome = Outcome.noMatch
        entry.regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: positions)) {
            result, _, stop in
            if result != nil {
                outcome = .match
                stop.pointee = true
                return
            }
            calls += 1
            if calls > allowedCalls || (calls % 16 == 0 && clock.now - start > maxMatchTime) {
                outcome = .exceeded
                stop.pointee = true
            }
        }
        return (outcome, calls)
    }

    static func exceededReason(_ entry: Entry, textLength: Int) -> String {
        "pattern \(entry.pattern.prefix(100)) passed the match bound (\(maxStepsPerMatch) steps or \(maxMatchTime) per error text) "
            + "on a text of \(textLength) characters: it backtracks catastrophically (nested quantifiers such as (a+)+, "
            + "or alternatives that match the same text); rewrite it so each character can be matched one way"
    }

    /// Texts every pattern must match within the bound when a map is loaded:
    /// a run of each character the pattern names (and of `a`, `0`, space),
    /// followed by a character that ends the run, and with nothing after it.
    static func loadProbes(_ pattern: String) -> [String] {
        var characters: [Character] = ["a", "0", " "]
        for character in pattern
        where character.isASCII && !characters.contains(character)
            && (character.isLetter || character.isNumber || character == " " || character == "-" || character == "_")
        {
            characters.append(character)
            if characters.count >= 16 { break }
        }
        return characters.flatMap { character in
            let run = String(repeating: character, count: loadProbeLength)
            return [run + "!", run + "\u{1}", run]
        }
    }

    /// The map beside the adapter's script: the first word of `command` that
    /// names an existing file whose folder holds `error-map.json`.
    public static func discover(command: String) -> String? {
        for word in command.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let path = String(word).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let candidate = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// The entries of one map refused during a run, with the reason, shared by
/// every copy of the map (matches run concurrently in a matrix), and the
/// count of matches tried.
final class RefusedEntries: Sendable {
    private struct Ledger {
        var reasons: [Int: String] = [:]
        var matches = 0
    }
    private let ledger = Mutex(Ledger())

    func reason(_ index: Int) -> String? { ledger.withLock { $0.reasons[index] } }
    func refuse(_ index: Int, _ reason: String) { ledger.withLock { $0.reasons[index] = $0.reasons[index] ?? reason } }
    func countMatch() { ledger.withLock { $0.matches += 1 } }
    var matches: Int { ledger.withLock { $0.matches } }
}
