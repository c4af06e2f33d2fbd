import Foundation
import TrustSuiteSupport

/// A vector file that cannot be used, with the reason in one line.
public struct VectorLoadError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Reads vector files and rejects malformed ones with a clear message:
/// wrong schema, unknown family, duplicate tcId, wrong numberOfTests,
/// `acceptable` without a flag, `invalid` without an error code, an
/// `attack` other than network or signed, an `id`
/// used twice across the files loaded together, and any input or output
/// that breaks its family's ``FamilyContract`` (an unknown field or op, a
/// wrongly typed value, malformed base64 or hex, a trace whose `expect` and
/// `output` disagree, a launch-policy input without its flag).
public enum VectorLoader {
    /// Loads every `.json` file at the given paths (files or folders, searched
    /// recursively, in sorted order).
    public static func load(paths: [String]) throws(VectorLoadError) -> [VectorFile] {
        var files: [String] = []
        for path in paths { files += try jsonFiles(at: path) }
        var seen = Set<String>()
        files = files.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
        let loaded = try files.map { path throws(VectorLoadError) in try loadFile(path) }
        var owners: [String: String] = [:]
        for file in loaded {
            for vector in file.vectors {
                if let other = owners[vector.id] {
                    throw VectorLoadError(
                        path: file.path,
                        "tcId \(vector.tcId): id \"\(vector.id)\" is already used in \(other)")
                }
                owners[vector.id] = file.path
            }
        }
        return loaded
    }

    /// The `.json` files at `path`: the file itself, or all below a folder.
    public static func jsonFiles(at path: String) throws(VectorLoadError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VectorLoadError(path: path, "no such file or folder")
        }
        guard isDirectory.boolValue else { return [path] }
        guard let walker = FileManager.default.enumerator(atPath: path) else {
            throw VectorLoadError(path: path, "cannot list the folder")
        }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".json") { found.append((path as NSString).appendingPathComponent(relative)) }
        }
        return found.sorted()
    }

    /// Largest vector file read (the biggest fixture is under 2 MiB).
    package static let maxFileBytes = 64 * 1024 * 1024

    public static func loadFile(_ path: String) throws(VectorLoadError) -> VectorFile {
        let data: [UInt8]
        do {
            data = try RegularFile.read(path, limit: maxFileBytes)
        } catch {
            throw VectorLoadError(path: path, "cannot read: \(error.description)")
        }
        return try parse(Data(data), path: path)
    }

    /// Parses and checks one file's bytes; `path` is used in messages.
    public static func parse(_ data: Data, path: String) throws(VectorLoadError) -> VectorFile {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw VectorLoadError(path: path, "not valid JSON (\(error))")
        }
        func fail(_ message: String) -> VectorLoadError { VectorLoadError(path: path, message) }
        if let key = DuplicateKeys.first(in: Array(data)) {
            throw fail("the key \"\(key)\" stands twice in one object (a decoder keeps the first, another the last: refused)")
        }

        guard root.objectValue != nil else { throw fail("the top level must be a JSON object") }
        guard let schema = root["schema"]?.stringValue else { throw fail("missing \"schema\"") }
        guard schema == VectorFile.schema else {
            throw fail("schema \"\(schema)\" is not \"\(VectorFile.schema)\"")
        }
        guard let familyName = root["family"]?.stringValue else { throw fail("missing \"family\"") }
        guard let family = Family(rawValue: familyName) else {
            let known = Family.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail("unknown family \"\(familyName)\" (known: \(known))")
        }
        if let problem = EnvelopeFields.problem(root) { throw fail(problem) }
        guard let declared = root["numberOfTests"]?.int64Value else { throw fail("missing \"numberOfTests\"") }
        guard let groups = root["testGroups"]?.arrayValue else { throw fail("missing \"testGroups\" array") }

        var vectors: [Vector] = []
        var tcIds = Set<Int>()
        for (g, group) in groups.enumerated() {
            guard group.objectValue != nil else { throw fail("testGroups[\(g)] is not an object") }
            let defaults = group["defaults"]?.objectValue ?? [:]
            guard let tests = group["tests"]?.arrayValue else { throw fail("testGroups[\(g)] has no \"tests\" array") }
            for (t, test) in tests.enumerated() {
                let place = "testGroups[\(g)].tests[\(t)]"
                guard let tcId = test["tcId"]?.int64Value, let tc = Int(exactly: tcId) else {
                    throw fail("\(place): missing integer \"tcId\"")
                }
                guard tcIds.insert(tc).inserted else { throw fail("duplicate tcId \(tc)") }
                guard let id = test["id"]?.stringValue, !id.isEmpty else { throw fail("tcId \(tc): missing \"id\"") }
                guard let resultName = test["result"]?.stringValue, let result = ExpectedResult(rawValue: resultName)
                else { throw fail("tcId \(tc): \"result\" must be valid, invalid or acceptable") }
                let flags = (test["flags"]?.arrayValue ?? []).compactMap(\.stringValue)
                if result == .acceptable && flags.isEmpty {
                    throw fail("tcId \(tc): acceptable result without a flag explaining it")
                }
                let error = test["error"]?.stringValue
                if result == .invalid && (error ?? "").isEmpty {
                    throw fail("tcId \(tc): invalid result without an error code")
                }
                var attack: Attack? = nil
                if let value = test["attack"] {
                    guard let name = value.stringValue, let known = Attack(rawValue: name) else {
                        throw fail("tcId \(tc): \"attack\" must be network or signed")
                    }
                    attack = known
                }
                guard let input = test["input"]?.objectValue else { throw fail("tcId \(tc): missing \"input\" object") }
                let merged = JSONValue.object(defaults.merging(input) { _, own in own })
                if let problem = family.problem(input: merged, output: test["output"], flags: flags) {
                    throw fail("tcId \(tc): \(problem)")
                }
                vectors.append(
                    Vector(
                        family: family, file: path, tcId: tc, id: id,
                        comment: test["comment"]?.stringValue ?? "", flags: flags,
                        input: merged,
                        result: result, error: error, output: test["output"],
                        group: g, groupComment: group["comment"]?.stringValue ?? "", attack: attack))
            }
        }
        guard declared == Int64(vectors.count) else {
            throw fail("numberOfTests is \(declared) but the file holds \(vectors.count) tests")
        }
        let flagNotes = try VectorNote.notes(of: root, flags: vectors.map(\.flags), path: path)
        var file = VectorFile(
            path: path, family: family, title: root["title"]?.stringValue ?? "",
            source: root["source"]?.stringValue ?? "", notes: flagNotes.mapValues(\.description),
            vectors: vectors)
        file.flagNotes = flagNotes
        return file
    }
}

extension VectorLoadError {
    /// A regular file's bytes, at most `limit`, or the reason it cannot be
    /// read (the error maps, expected-failure lists and baselines a run reads).
    package static func read(_ path: String, limit: Int) throws(VectorLoadError) -> Data {
        do {
            return Data(try RegularFile.read(path, limit: limit))
        } catch {
            throw VectorLoadError(path: path, "cannot read: \(error.description)")
        }
    }
}
