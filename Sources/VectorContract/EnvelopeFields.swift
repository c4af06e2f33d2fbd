import TrustSuiteSupport

/// The fields of a vector file's envelope, its groups and its tests
/// (docs/vectors.md; schemas/trustsuite-vectors.schema.json has
/// `additionalProperties: false` at each level): a field outside these is a
/// mistake of the file, refused by the loader as by the schema.
public enum EnvelopeFields {
    static let file: Set<String> = ["schema", "family", "title", "source", "notes", "numberOfTests", "testGroups"]
    static let group: Set<String> = ["comment", "defaults", "tests"]
    /// `attack` is the App Attest severity field of docs/vectors.md, Amendments (round 3).
    static let test: Set<String> = ["tcId", "id", "comment", "flags", "input", "result", "error", "output", "attack"]

    /// The first unknown field of `object` at `place`, as a message, or nil.
    static func unknown(_ object: JSONValue, allowed: Set<String>, place: String) -> String? {
        guard let keys = object.objectValue?.keys else { return nil }
        return keys.sorted().first { !allowed.contains($0) }.map {
            "\(place) has field \"\($0)\", which docs/vectors.md does not define (fields: \(allowed.sorted().joined(separator: ", ")))"
        }
    }

    /// The first unknown field of a file, its groups or its tests.
    public static func problem(_ root: JSONValue) -> String? {
        if let problem = unknown(root, allowed: file, place: "the file") { return problem }
        for (g, group) in (root["testGroups"]?.arrayValue ?? []).enumerated() {
            if let problem = unknown(group, allowed: Self.group, place: "testGroups[\(g)]") { return problem }
            for (t, test) in (group["tests"]?.arrayValue ?? []).enumerated() {
                if let problem = unknown(test, allowed: Self.test, place: "testGroups[\(g)].tests[\(t)]") { return problem }
            }
        }
        return nil
    }
}
