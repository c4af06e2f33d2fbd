@testable import ConformanceKit
@testable import AdapterHost
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// Error-map patterns have a bounded cost (issue 44 item 7): `(a+)+$`
/// against 23 characters took 107–153 s over 146 vectors.
@Suite struct ErrorMapBoundTests {
    static func map(_ patterns: [String]) -> Data {
        let entries = patterns.map { #"{"pattern": \#(JSONValue.string($0).jsonText), "code": "truncated"}"# }
        return Data("[\(entries.joined(separator: ","))]".utf8)
    }

    /// The audit's pattern is refused when the map is loaded, at once, with
    /// a line naming the entry and the pattern. "At once" is the matcher's
    /// step bound (counted in the next test); a load that ran the pattern
    /// unbounded fails the time limit.
    @Test(.timeLimit(.minutes(10))) func aCatastrophicPatternIsRefusedAtLoad() throws {
        #expect {
            _ = try ErrorMap.parse(Self.map(["Out of data", "(a+)+$"]), path: "error-map.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains("entry 1") && text.contains("(a+)+$") && text.contains("backtracks catastrophically")
        }
    }

    /// A pattern the load-time texts do not trip (here one let through by
    /// building the map directly) is stopped on the answer that trips it:
    /// that answer's lookup throws within the bound, naming the pattern, and
    /// every later lookup that would try it throws at once; a pattern before
    /// it still answers. Counted, not timed: the matcher's steps (ICU's
    /// progress calls) and the matches tried.
    @Test(.timeLimit(.minutes(10))) func aMatchPastTheBoundIsStoppedAndThePatternRefused() throws {
        let entries = try ["^Out of data$", "(a+)+$"].map { pattern in
            ErrorMap.Entry(pattern: pattern, code: "truncated", regex: try NSRegularExpression(pattern: pattern))
        }
        let map = ErrorMap(path: "error-map.json", entries: entries)
        // 31 characters: 4.4 s of backtracking for one match without the bound (0.4 s at the audit's 23).
        let hostile = String(repeating: "a", count: 31) + "!"
        // The matcher stops at the bound: no more progress calls than it allows, plus the one that stopped it.
        let (outcome, calls) = ErrorMap.match(entries[1], in: hostile)
        #expect(outcome == .exceeded)
        #expect(calls <= ErrorMap.allowedProgressCalls(length: hostile.utf16.count) + 1, "\(calls) progress calls")
        #expect {
            _ = try map.code(for: hostile)
        } throws: { error in
            "\(error)".contains("entry 1") && "\(error)".contains("(a+)+$") && "\(error)".contains("refused for the rest of the run")
        }
        // Both patterns were tried once; the refused one is never tried again.
        #expect(map.matchesTried == 2)
        for _ in 0..<146 { #expect(throws: AdapterError.self) { _ = try map.code(for: hostile) } }
        #expect(map.matchesTried == 2 + 146, "\(map.matchesTried) matches for 147 lookups")
        #expect(try map.code(for: "Out of data") == "truncated")
    }

    /// Linear patterns over the longest text matched (4096 characters) stay
    /// far inside the bound, and every map the adapters ship loads.
    @Test func ordinaryPatternsAndTheShippedMapsPass() throws {
        let map = try ErrorMap.parse(
            Self.map([
                "unexpected end of CBOR data", "buffer read for \\d+ but only have", "marker f[c-e]$",
                "^(foo|bar)+ baz", "\\w+ block under VAR",
            ]), path: "error-map.json")
        let long = String(repeating: "word ", count: 800) + "buffer read for 12 but only have 3"
        #expect(try map.code(for: long) == "truncated")
        // One 4096-character word: `\w+ block` is quadratic on it (8 million steps), inside the bound.
        #expect(try map.code(for: String(repeating: "x", count: 5000)) == nil)
        let adapters = Locations.packageRoot.appendingPathComponent("Adapters")
        let names = try FileManager.default.contentsOfDirectory(atPath: adapters.path)
        var loaded = 0
        for name in names.sorted() {
            let path = adapters.appendingPathComponent(name).appendingPathComponent(ErrorMap.fileName).path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            #expect(throws: Never.self, "\(path)") { _ = try ErrorMap.load(path) }
            loaded += 1
        }
        #expect(loaded > 0)
    }
}
