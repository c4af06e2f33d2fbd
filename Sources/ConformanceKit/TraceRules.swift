/// What a trace vector may say (spec/vectors.md, "Shapes of the model
/// families"; spec/keychain-flows.md, "Vectors"): the step fields and the
/// attribute names each trace family defines. A name outside these is an
/// error of the vector, never something to ignore, and a step's `expect`
/// must say exactly what the vector's `output` says for that step.
public enum TraceRules {
    /// Item attributes that `add` and `generateKey` take in `item`.
    static let itemAttributes: Set<String> = [
        "class", "service", "account", "accessGroup", "applicationTag", "keyClass", "tokenID", "protection", "flags",
        "synchronizable", "data", "useAuthenticationUI",
    ]
    /// Query attributes of `copyMatching`, `update`, `delete`, `sign`, `evaluateAccessControl`.
    static let queryAttributes: Set<String> = [
        "class", "service", "account", "accessGroup", "synchronizable", "applicationTag", "keyClass", "tokenID",
        "matchLimit", "returnData", "returnAttributes", "returnRef", "useAuthenticationUI", "operationPrompt",
    ]
    /// What `update` may change.
    static let changeAttributes: Set<String> = ["service", "account", "data"]

    /// The step fields of a trace family; nil for the families that are not traces.
    public static func stepFields(_ family: Family) -> Set<String>? {
        switch family {
        case .cbor, .appAttestAttestation, .appAttestAssertion, .appAttestReceipt, .keychainACL:
            return nil
        case .devicecheck:
            return ["op", "request", "at", "team", "authorized", "expect"]
        case .keychainFlow:
            return ["op", "item", "query", "changes", "message", "operation", "policy", "context", "event", "user", "expect"]
        case .laRight:
            return ["op", "reason", "user", "identifier", "secret", "event", "expect"]
        }
    }

    /// The attribute names allowed inside a step's object-valued field, when the family restricts them.
    static func nestedAttributes(_ family: Family, field: String) -> Set<String>? {
        guard family == .keychainFlow else { return nil }
        switch field {
        case "item": return itemAttributes
        case "query": return queryAttributes
        case "changes": return changeAttributes
        default: return nil
        }
    }

    /// The first problem of a trace vector, or nil: an unknown step field or
    /// attribute, an `expect` without `output`, or an `expect` that differs
    /// from the output of its step.
    public static func problem(family: Family, input: JSONValue, output: JSONValue?) -> String? {
        guard let allowed = stepFields(family) else { return nil }
        guard let steps = input["steps"]?.arrayValue else { return "a \(family.rawValue) trace needs \"steps\"" }
        var expected: [JSONValue?] = []
        for (index, step) in steps.enumerated() {
            guard let object = step.objectValue else { return "steps[\(index)] is not an object" }
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                return "steps[\(index)] has field \"\(unknown)\", which \(family.rawValue) does not define (fields: \(allowed.sorted().joined(separator: ", ")))"
            }
            for (field, value) in object {
                guard let names = nestedAttributes(family, field: field), let nested = value.objectValue else { continue }
                if let unknown = nested.keys.sorted().first(where: { !names.contains($0) }) {
                    return "steps[\(index)].\(field) has attribute \"\(unknown)\", which \(family.rawValue) does not define"
                }
            }
            expected.append(object["expect"])
        }
        guard expected.contains(where: { $0 != nil }) else { return nil }
        guard let outputSteps = output?["steps"]?.arrayValue else { return "steps carry \"expect\" but the vector has no output.steps" }
        guard outputSteps.count == expected.count else {
            return "output.steps has \(outputSteps.count) entries for \(expected.count) steps"
        }
        for (index, (expect, answer)) in zip(expected, outputSteps).enumerated() where expect != answer {
            return "steps[\(index)].expect \(expect?.jsonText ?? "(absent)") differs from output.steps[\(index)] \(answer.jsonText)"
        }
        if let notifications = input["expectNotifications"], output?["notifications"] != notifications {
            return "expectNotifications differs from output.notifications"
        }
        return nil
    }
}
