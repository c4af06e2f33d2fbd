import TrustSuiteSupport

/// What a flag means (docs/vectors.md, Amendments (round 3): notes carry
/// meaning): a file's `notes` map a flag, or a field name, to a string (the
/// version-1 form) or to `{"bugType", "description", "effect", "links",
/// "cves"}` as in Wycheproof's `testvectors_v1`. Every flag a vector of the
/// file carries must have a note; a `KNOWN_BUG` note links the public report.
public struct VectorNote: Sendable, Hashable {
    /// The kinds of flag, Wycheproof's names.
    public static let bugTypes: Set<String> = [
        "KNOWN_BUG", "EDGE_CASE", "MALLEABILITY", "MISSING_CHECK", "WRONG_PRIMITIVE", "FUNCTIONALITY",
        "LIMIT_POLICY", "SPEC_CHOICE",
    ]
    /// The fields an object note may have.
    static let fields: Set<String> = ["bugType", "description", "effect", "links", "cves"]

    /// Nil for a note in the string form.
    public let bugType: String?
    public let description: String
    public let effect: String?
    /// Public reports (issues, advisories, commits) of the bug the flag stands for.
    public let links: [String]
    public let cves: [String]

    public init(bugType: String?, description: String, effect: String? = nil, links: [String] = [], cves: [String] = []) {
        self.bugType = bugType
        self.description = description
        self.effect = effect
        self.links = links
        self.cves = cves
    }

    /// A note written in the files' form (a string, or an object with
    /// `bugType`, `description`, `effect`, `links`), read without checks:
    /// for notes the suite writes itself (``FlagNotes``).
    package init(_ value: JSONValue) {
        guard let object = value.objectValue else {
            self.init(bugType: nil, description: value.stringValue ?? "")
            return
        }
        self.init(
            bugType: object["bugType"]?.stringValue, description: object["description"]?.stringValue ?? "",
            effect: object["effect"]?.stringValue, links: object["links"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            cves: object["cves"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    /// Whether the note is in the object form.
    public var isObject: Bool { bugType != nil }

    /// The help text of a flag: description, effect and links in one paragraph.
    public var helpText: String {
        var text = description
        if let effect { text += " Effect: \(effect)" }
        if !links.isEmpty { text += " Reported: " + links.joined(separator: ", ") }
        if !cves.isEmpty { text += " (" + cves.joined(separator: ", ") + ")" }
        return text
    }

    /// The notes of a vector file's `root`, checked: each a string or a
    /// well-formed object, and a note for every flag in `flags`.
    static func notes(of root: JSONValue, flags: [[String]], path: String) throws(VectorLoadError) -> [String: VectorNote] {
        func fail(_ message: String) -> VectorLoadError { VectorLoadError(path: path, message) }
        var notes: [String: VectorNote] = [:]
        if let value = root["notes"] {
            guard let object = value.objectValue else { throw fail("\"notes\" must be an object") }
            for (key, value) in object { notes[key] = try note(value, key: key, fail: fail) }
        }
        for flag in Set(flags.joined()).sorted() where notes[flag] == nil {
            throw fail("flag \"\(flag)\" has no note in \"notes\" (say what it stands for)")
        }
        return notes
    }

    private static func note(_ value: JSONValue, key: String, fail: (String) -> VectorLoadError) throws(VectorLoadError) -> VectorNote {
        if let text = value.stringValue { return VectorNote(bugType: nil, description: text) }
        guard let object = value.objectValue else { throw fail("note \"\(key)\" must be a string or an object") }
        if let unknown = Set(object.keys).subtracting(fields).sorted().first {
            throw fail("note \"\(key)\": unknown field \"\(unknown)\" (known: \(fields.sorted().joined(separator: ", ")))")
        }
        guard let bugType = object["bugType"]?.stringValue, bugTypes.contains(bugType) else {
            throw fail("note \"\(key)\": \"bugType\" must be one of \(bugTypes.sorted().joined(separator: ", "))")
        }
        guard let description = object["description"]?.stringValue, !description.isEmpty else {
            throw fail("note \"\(key)\": \"description\" must be a non-empty string")
        }
        if let effect = object["effect"], effect.stringValue == nil { throw fail("note \"\(key)\": \"effect\" must be a string") }
        let links = try strings(object["links"], "links", key: key, fail: fail)
        let cves = try strings(object["cves"], "cves", key: key, fail: fail)
        if let link = links.first(where: { !$0.hasPrefix("https://") }) {
            throw fail("note \"\(key)\": link \"\(link.prefix(100))\" is not an https URL")
        }
        if bugType == "KNOWN_BUG" && links.isEmpty {
            throw fail("note \"\(key)\": a KNOWN_BUG note links the public report of the bug")
        }
        return VectorNote(
            bugType: bugType, description: description, effect: object["effect"]?.stringValue,
            links: links, cves: cves)
    }

    private static func strings(
        _ value: JSONValue?, _ name: String, key: String,
        fail: (String) -> VectorLoadError
    ) throws(VectorLoadError) -> [String] {
        guard let value else { return [] }
        guard let list = value.arrayValue else { throw fail("note \"\(key)\": \"\(name)\" must be a list of strings") }
        var out: [String] = []
        for item in list {
            guard let text = item.stringValue else { throw fail("note \"\(key)\": \"\(name)\" must be a list of strings") }
            out.append(text)
        }
        return out
    }
}
