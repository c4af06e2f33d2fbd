import VectorContract
import Foundation
import TrustSuiteSupport

/// A list of third-party implementations to run side by side
/// (`Adapters/adapters.json`, read by `trustsuite matrix --adapters FILE`):
/// one entry per implementation with its `name`, `language`, `library`,
/// `version` (the release its adapter must report in its hello),
/// `command` (run in the list's folder, so paths in it are relative to the
/// file) and the `families` it claims.
public struct AdapterList: Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public let name: String
        public let language: String
        public let library: String
        public let version: String
        public let command: String
        public let families: [String]
    }

    private struct File: Codable {
        let schema: String
        let adapters: [Entry]
    }

    /// The one schema this reader knows.
    public static let schema = "trustsuite-adapters/1"
    /// A list is a hand-written file of a few dozen entries; a larger one is
    /// a wrong path, not a list.
    public static let maxFileBytes = 1 << 20

    /// The folder holding the file: every command runs there.
    public let folder: URL
    public let entries: [Entry]

    /// Reads and checks a list: known schema, at least one entry, plain
    /// names (``isPlainName(_:)``) unique ignoring case and not
    /// "reference", every field non-empty, known families.
    public static func load(path: String) throws(VectorLoadError) -> AdapterList {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: maxFileBytes)
        } catch {
            throw VectorLoadError(path: path, error.description)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch {
            let reason = String(String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ").prefix(300))
            throw VectorLoadError(path: path, "not an adapter list (\(Self.schema)): \(reason)")
        }
        guard file.schema == schema else { throw VectorLoadError(path: path, "schema \"\(file.schema)\", expected \"\(schema)\"") }
        guard !file.adapters.isEmpty else { throw VectorLoadError(path: path, "lists no adapter") }
        var names: Set<String> = ["reference"]
        for entry in file.adapters {
            let fields = [entry.name, entry.language, entry.library, entry.version, entry.command]
            guard !fields.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }), !entry.families.isEmpty else {
                throw VectorLoadError(path: path, "adapter \"\(entry.name)\": every field must be non-empty")
            }
            guard Self.isPlainName(entry.name) else {
                throw VectorLoadError(
                    path: path,
                    "adapter name \"\(Self.shown(entry.name))\" is not a plain name (ASCII letters, digits, '.', '_', '+', '-', "
                        + "starting with a letter or digit, at most \(Self.maxNameLength)): it names the adapter's folder beside the list")
            }
            guard names.insert(entry.name.lowercased()).inserted else {
                throw VectorLoadError(
                    path: path, "adapter name \"\(entry.name)\" is used twice (ignoring case; \"reference\" is taken)")
            }
            if let unknown = entry.families.first(where: { Family(rawValue: $0) == nil }) {
                throw VectorLoadError(path: path, "adapter \"\(entry.name)\": unknown family \"\(unknown)\"")
            }
        }
        let folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        return AdapterList(folder: folder, entries: file.adapters)
    }

    /// The entry's `NAME/error-map.json` beside the list, if it has one
    /// (docs/vectors.md, Amendments (round 3): an adapter folder may hold
    /// its error map).
    public func errorMapPath(_ entry: Entry) -> String? {
        let path = folder.appendingPathComponent(entry.name).appendingPathComponent(ErrorMap.fileName).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The shell command the runner starts for `entry`: its command, run in
    /// the list's folder (`exec`, so the adapter is the process the runner
    /// stops).
    public func shellCommand(_ entry: Entry) -> String {
        "cd '\(folder.path.replacingOccurrences(of: "'", with: "'\\''"))' && exec \(entry.command)"
    }
}
