import TrustSuiteSupport
import Foundation

/// An adapter's `error-map.json` (spec/vectors.md, Amendments (round 3)):
/// an ordered list of `{"pattern": regex over the error text, "code": …}`.
/// The first pattern that matches an answer's `error` gives its code, for an
/// adapter whose library has error messages but no codes.
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

    public struct Entry: Sendable {
        public let pattern: String
        public let code: String
        let regex: NSRegularExpression
    }

    public let path: String
    public let entries: [Entry]

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
            entries.append(Entry(pattern: pattern, code: code, regex: regex))
        }
        return ErrorMap(path: path, entries: entries)
    }

    /// The code of the first pattern found in `text`, or nil.
    public func code(for text: String?) -> String? {
        guard let text else { return nil }
        let bounded = String(text.prefix(Self.maxMatchedCharacters))
        let range = NSRange(bounded.startIndex..., in: bounded)
        return entries.first { $0.regex.firstMatch(in: bounded, range: range) != nil }?.code
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

extension VectorLoadError {
    /// A regular file's bytes, at most `limit`, or the reason it cannot be
    /// read (the error maps, expected-failure lists and baselines a run reads).
    static func read(_ path: String, limit: Int) throws(VectorLoadError) -> Data {
        do {
            return Data(try RegularFile.read(path, limit: limit))
        } catch {
            throw VectorLoadError(path: path, "cannot read: \(error.description)")
        }
    }
}
