import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// Issue 41, item 2: the contract lives in the clone. Every reference in the
/// documents (docs/, README.md, CONTRIBUTING.md) and in the sources' comments
/// and strings (doc comments, `--help` texts) names a file the clone has:
/// a relative Markdown link, a `docs/….md` path, and never the shared
/// spec's `spec/….md`, which a clone does not have.
@Suite struct ReferenceTests {
    struct Reference: Sendable, CustomStringConvertible {
        let file: String
        let line: Int
        let target: String
        var description: String { "\(file):\(line): \(target)" }
    }

    /// The files whose references are checked, relative to the checkout.
    static func scannedFiles() -> [String] {
        var found = ["README.md", "CONTRIBUTING.md"]
        for (folder, suffix) in [("docs", ".md"), ("Sources", ".swift")] {
            let root = Checkout.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let path = walker.nextObject() as? String {
                if path.hasSuffix(suffix) { found.append(folder + "/" + path) }
            }
        }
        return found.sorted()
    }

    /// A Markdown link's target: `](target)` with no space in it.
    static var link: Regex<(Substring, Substring)> { /\]\(([^)\s]+)\)/ }
    /// A path to a spec file of the shared folder: `spec/x.md`, `../shared/spec/x.md`.
    static var specPath: Regex<Substring> { /(?:[\w.-]+\/)*spec\/[\w.-]+\.md/ }
    /// A repository path to a document: `docs/x.md`, `docs/models/x.md`.
    static var docsPath: Regex<(Substring, Substring)> { /(?:^|[^\w\/.-])(docs\/[\w\/.-]+\.md)/ }

    /// The references of one file. In Swift only the comment part of a line
    /// is read for links (`[UInt8](data)` is code); paths count anywhere, as
    /// they sit in comments and strings.
    static func references(in relative: String, text: String) -> [Reference] {
        let folder = (relative as NSString).deletingLastPathComponent
        let isSwift = relative.hasSuffix(".swift")
        var found: [Reference] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let comment = isSwift ? line.range(of: "//").map { String(line[$0.upperBound...]) } ?? "" : String(line)
            for match in comment.matches(of: link) {
                let target = String(match.1)
                if target.contains(":") || target.hasPrefix("#") || target.hasPrefix("<") { continue }  // URLs, anchors
                let path = String(target.prefix { $0 != "#" && $0 != "?" })
                guard !path.isEmpty else { continue }
                if !exists(normalized(folder + "/" + path)) { found.append(Reference(file: relative, line: index + 1, target: target)) }
            }
            for match in line.matches(of: specPath) {
                found.append(Reference(file: relative, line: index + 1, target: String(match.0)))
            }
            for match in line.matches(of: docsPath) where !exists(String(match.1)) {
                found.append(Reference(file: relative, line: index + 1, target: String(match.1)))
            }
        }
        return found
    }

    /// `path` with its `.` and `..` steps applied (a `..` above the start is kept).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    /// Whether `path` (relative to the checkout) exists in it, and stays in it.
    static func exists(_ path: String) -> Bool {
        guard !path.hasPrefix("../"), !path.hasPrefix("/") else { return false }
        return FileManager.default.fileExists(atPath: Checkout.root.appendingPathComponent(path).path)
    }

    @Test func everyReferencePointsIntoTheClone() throws {
        let files = Self.scannedFiles()
        #expect(files.count > 100, "\(files.count) files")
        var outside: [Reference] = []
        for file in files {
            let text = try String(contentsOf: Checkout.root.appendingPathComponent(file), encoding: .utf8)
            outside += Self.references(in: file, text: text)
        }
        let list = outside.map(\.description).joined(separator: "\n")
        #expect(outside.isEmpty, "\(outside.count) references to files the clone does not have:\n\(list)")
    }

    /// The checker itself: what it must find and what it must let be.
    @Test func theCheckerFindsWhatItShould() {
        let markdown = """
            See [the contract](vectors.md), [a model](models/cbor.md#modes), [web](https://example.com), [here](#top).
            Broken: [gone](nowhere.md), [outside](../../elsewhere/x.md), spec/vectors.md, ../shared/spec/probe.md.
            Paths: docs/vectors.md is here, docs/missing.md is not.
            """
        let found = Self.references(in: "docs/example.md", text: markdown).map(\.target)
        #expect(
            found == ["nowhere.md", "../../elsewhere/x.md", "spec/vectors.md", "../shared/spec/probe.md", "docs/missing.md"], "\(found)")
        let swift = """
            /// The rule (spec/cbor.md); see [the contract](../../docs/vectors.md) and [gone](../../docs/gone.md).
            let bytes = [UInt8](data) // [UInt8](data) in a comment is a link, and broken
            let help = "the probe config (docs/probe.md)"
            """
        let swiftFound = Self.references(in: "Sources/X/Y.swift", text: swift).map(\.target)
        #expect(swiftFound == ["../../docs/gone.md", "spec/cbor.md", "data"], "\(swiftFound)")
    }
}
