import ConformanceKit
import KeychainAccessControl
import KeychainModel

/// The `keychain-flow` family: a trace of SecItem and LAContext calls on
/// ``KeychainSimulator``; each step answers `{status, prompts}` (plus `data`
/// and `count` for reads).
public enum KeychainFlowSubject {
    static func evaluate(_ input: JSONValue) throws -> SubjectAnswer {
        let answers = try trace(input).map(\.answer)
        return SubjectAnswer(.valid, output: .object(["steps": .array(answers)]))
    }

    /// Runs a trace (`{"device": …, "steps": […]}`) and returns each step
    /// with its answer `{status, prompts, data?, count?}`.
    public static func trace(_ input: JSONValue) throws -> [(step: JSONValue, answer: JSONValue)] {
        guard let steps = input["steps"]?.arrayValue else { throw ReferenceInputError("keychain-flow needs \"steps\"") }
        var keychain = KeychainSimulator(device: try KeychainJSON.device(input["device"]))
        return try steps.enumerated().map { index, step in
            do {
                let outcome = try run(step, on: &keychain)
                var answer: [String: JSONValue] = ["status": .int(Int64(outcome.status)), "prompts": .int(Int64(outcome.prompts))]
                if let data = outcome.data { answer["data"] = .string(BinaryText.base64(data)) }
                if let count = outcome.count { answer["count"] = .int(Int64(count)) }
                return (step, .object(answer))
            } catch let error as ReferenceInputError {
                throw ReferenceInputError("step \(index): \(error.description)")
            }
        }
    }

    static func user(_ step: JSONValue) throws -> UserAnswer? {
        guard let name = step["user"]?.stringValue else { return nil }
        guard let answer = UserAnswer(rawValue: name) else {
            throw ReferenceInputError("user must be one of " + UserAnswer.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return answer
    }

    static func attributes(_ value: JSONValue?, defaultClass: ItemClass = .genericPassword) throws -> ItemAttributes {
        let object = value?.objectValue ?? [:]
        var itemClass = defaultClass
        if let name = object["class"]?.stringValue {
            guard let parsed = ItemClass(rawValue: name) else {
                throw ReferenceInputError("class must be genericPassword or key")
            }
            itemClass = parsed
        }
        return ItemAttributes(
            itemClass: itemClass, service: object["service"]?.stringValue, account: object["account"]?.stringValue,
            accessGroup: object["accessGroup"]?.stringValue, synchronizable: object["synchronizable"]?.boolValue,
            applicationTag: object["applicationTag"]?.stringValue, keyClass: object["keyClass"]?.stringValue,
            tokenID: object["tokenID"]?.stringValue)
    }

    static func query(_ value: JSONValue?, defaultClass: ItemClass = .genericPassword) throws -> ItemQuery {
        var query = ItemQuery(attributes: try attributes(value, defaultClass: defaultClass))
        query.matchAll = value?["matchLimit"]?.stringValue == "all"
        query.returnData = value?["returnData"]?.boolValue ?? false
        query.returnAttributes = value?["returnAttributes"]?.boolValue ?? false
        query.returnRef = value?["returnRef"]?.boolValue ?? false
        query.authenticationUI = try authenticationUI(value)
        query.operationPrompt = value?["operationPrompt"]?.stringValue
        return query
    }

    /// `useAuthenticationUI`: allow (default), skip or fail.
    static func authenticationUI(_ value: JSONValue?) throws -> AuthenticationUI {
        guard let item = value?["useAuthenticationUI"] else { return .allow }
        guard let name = item.stringValue, let ui = AuthenticationUI(rawValue: name) else {
            throw ReferenceInputError("useAuthenticationUI must be one of " + AuthenticationUI.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return ui
    }

    static func access(_ item: JSONValue?) throws -> (ProtectionClass, AccessControlFlags) {
        let protection = try KeychainJSON.protection(item?["protection"])
        do {
            return (protection, try AccessControlFlags.parse(try KeychainJSON.strings(item?["flags"], "flags")))
        } catch let error as KeychainError {
            throw ReferenceInputError(error.reason)
        }
    }

    static func bytes(_ value: JSONValue?, _ name: String) throws -> [UInt8] {
        guard let value else { return [] }
        guard let text = value.stringValue, let bytes = BinaryText.base64(text) else {
            throw ReferenceInputError("\(name) must be base64")
        }
        return bytes
    }

    static func policy(_ value: JSONValue?) throws -> AuthenticationPolicy {
        guard let name = value?.stringValue, let policy = AuthenticationPolicy(rawValue: name) else {
            throw ReferenceInputError("policy must be one of " + AuthenticationPolicy.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return policy
    }

    /// The step operations of a keychain-flow trace (spec/keychain-flows.md).
    enum Op: String, CaseIterable {
        case add, generateKey, copyMatching, update, delete, sign
        case evaluatePolicy, canEvaluatePolicy, evaluateAccessControl, invalidateContext, device
    }

    static func run(_ step: JSONValue, on keychain: inout KeychainSimulator) throws -> StepOutcome {
        let context = step["context"]?.stringValue
        guard let op = step["op"]?.stringValue.flatMap(Op.init(rawValue:)) else {
            throw ReferenceInputError("op must be one of " + Op.allCases.map(\.rawValue).joined(separator: ", "))
        }
        switch op {
        case .add:
            let (protection, flags) = try access(step["item"])
            return keychain.add(try attributes(step["item"]), protection: protection, flags: flags,
                                data: try bytes(step["item"]?["data"], "item.data"),
                                authenticationUI: try authenticationUI(step["item"]))
        case .generateKey:
            let (protection, flags) = try access(step["item"])
            return keychain.generateKey(try attributes(step["item"], defaultClass: .key), protection: protection, flags: flags,
                                        authenticationUI: try authenticationUI(step["item"]))
        case .copyMatching:
            return keychain.copyMatching(try query(step["query"]), context: context, user: try user(step))
        case .update:
            let changes = step["changes"]
            return keychain.update(try query(step["query"]), service: changes?["service"]?.stringValue,
                                   account: changes?["account"]?.stringValue,
                                   data: changes?["data"] == nil ? nil : try bytes(changes?["data"], "changes.data"),
                                   context: context, user: try user(step))
        case .delete:
            return keychain.delete(try query(step["query"]))
        case .sign:
            return keychain.sign(try query(step["query"], defaultClass: .key), message: try bytes(step["message"], "message"),
                                 context: context, user: try user(step))
        case .evaluatePolicy:
            guard let context else { throw ReferenceInputError("evaluatePolicy needs a context") }
            return keychain.evaluatePolicy(try policy(step["policy"]), context: context, user: try user(step))
        case .canEvaluatePolicy:
            return keychain.canEvaluatePolicy(try policy(step["policy"]), context: context)
        case .evaluateAccessControl:
            guard let context else { throw ReferenceInputError("evaluateAccessControl needs a context") }
            return keychain.evaluateAccessControl(try query(step["query"], defaultClass: .key),
                                                  operation: try KeychainJSON.operation(step["operation"]),
                                                  context: context, user: try user(step))
        case .invalidateContext:
            guard let context else { throw ReferenceInputError("invalidateContext needs a context") }
            return keychain.invalidate(context: context)
        case .device:
            guard let name = step["event"]?.stringValue, let event = DeviceEvent(rawValue: name) else {
                throw ReferenceInputError("device step needs an event: " + DeviceEvent.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return keychain.apply(event)
        }
    }
}
