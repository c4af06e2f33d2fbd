import VectorContract
import KeychainAccessControl
import KeychainModel
import TrustSuiteSupport

/// The `keychain-flow` family: a trace of SecItem and LAContext calls on
/// ``KeychainSimulator``; each step answers `{status, prompts}` (plus `data`
/// and `count` for reads).
public enum KeychainFlowSubject {
    typealias Contract = KeychainFlowFamily

    static func evaluate(_ input: Contract.Input) throws -> SubjectAnswer {
        let steps = try trace(input)
        var answer = SubjectAnswer(.valid, output: .object(["steps": .array(steps.map(\.answer))]))
        // Every step's rule and reason, one line each: shown where the case did not pass.
        answer.explanation = steps.enumerated().map { index, step in
            "step \(index + 1) \(step.op.rawValue) → \(step.answer["status"]?.int64Value ?? 0): \(step.explanation ?? "no rule given")"
        }.joined(separator: "\n")
        return answer
    }

    /// Runs a trace (`{"device": …, "steps": […]}`) and returns each step
    /// as written with its answer `{status, prompts, data?, count?}` and the
    /// rule and reason that decided it.
    public static func trace(_ input: JSONValue) throws -> [(step: JSONValue, answer: JSONValue, explanation: String?)] {
        let answers = try trace(Contract.read(input))
        return zip(input["steps"]?.arrayValue ?? [], answers).map { (step: $0, answer: $1.answer, explanation: $1.explanation) }
    }

    static func trace(_ input: Contract.Input) throws -> [(op: Contract.Op, answer: JSONValue, explanation: String?)] {
        try outcomes(input).map { op, outcome in
            var answer: [String: JSONValue] = ["status": .int(Int64(outcome.status.rawValue)), "prompts": .int(Int64(outcome.prompts))]
            if let data = outcome.data { answer["data"] = .string(BinaryText.base64(data)) }
            if let count = outcome.count { answer["count"] = .int(Int64(count)) }
            return (op, .object(answer), outcome.explanation)
        }
    }

    /// Each step's op with its typed outcome (the fuzz oracle checks the
    /// statuses each call may answer by type).
    package static func outcomes(_ input: JSONValue) throws -> [(op: KeychainFlowFamily.Op, outcome: StepOutcome)] {
        try outcomes(Contract.read(input))
    }

    static func outcomes(_ input: Contract.Input) throws -> [(op: Contract.Op, outcome: StepOutcome)] {
        var keychain = KeychainSimulator(device: try KeychainJSON.device(input.device))
        return try input.steps.enumerated().map { index, step in
            do {
                return (step.op, try run(step, on: &keychain))
            } catch let error as ReferenceInputError {
                throw ReferenceInputError("step \(index): \(error.description)")
            }
        }
    }

    static func attributes(_ item: Contract.Item?, defaultClass: ItemClass = .genericPassword) throws -> ItemAttributes {
        ItemAttributes(
            itemClass: try item?.`class`.map { name throws(ReferenceInputError) in try model(name) } ?? defaultClass,
            service: item?.service, account: item?.account, accessGroup: item?.accessGroup,
            synchronizable: item?.synchronizable, applicationTag: item?.applicationTag, keyClass: item?.keyClass,
            tokenID: item?.tokenID)
    }

    static func query(_ query: Contract.Query?, defaultClass: ItemClass = .genericPassword) throws -> ItemQuery {
        var result = ItemQuery(
            attributes: ItemAttributes(
                itemClass: try query?.`class`.map { name throws(ReferenceInputError) in try model(name) } ?? defaultClass,
                service: query?.service, account: query?.account, accessGroup: query?.accessGroup,
                synchronizable: query?.synchronizable, applicationTag: query?.applicationTag, keyClass: query?.keyClass,
                tokenID: query?.tokenID))
        result.matchAll = query?.matchLimit == .all
        if let protection = query?.protection { result.protection = try KeychainJSON.protection(protection) }
        result.returnData = query?.returnData ?? false
        result.authenticationUI = try authenticationUI(query?.useAuthenticationUI)
        return result
    }

    /// `useAuthenticationUI`: allow (default), skip or fail.
    static func authenticationUI(_ name: Contract.AuthenticationUI?) throws(ReferenceInputError) -> AuthenticationUI {
        guard let name else { return .allow }
        return try model(name)
    }

    static func policy(_ name: Contract.Policy?) throws(ReferenceInputError) -> AuthenticationPolicy {
        guard let name else {
            throw ReferenceInputError("policy must be one of " + AuthenticationPolicy.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return try model(name)
    }

    static func user(_ name: UserName?) throws(ReferenceInputError) -> UserAnswer? {
        guard let name else { return nil }
        return try model(name) as UserAnswer
    }

    static func run(_ step: Contract.Step, on keychain: inout KeychainSimulator) throws -> StepOutcome {
        let context = step.context
        switch step.op {
        case .add:
            return keychain.add(
                try attributes(step.item), protection: try KeychainJSON.protection(step.item?.protection),
                flags: try KeychainJSON.flags(step.item?.flags), data: step.item?.data?.bytes ?? [],
                authenticationUI: try authenticationUI(step.item?.useAuthenticationUI))
        case .generateKey:
            return keychain.generateKey(
                try attributes(step.item, defaultClass: .key),
                protection: try KeychainJSON.protection(step.item?.protection),
                flags: try KeychainJSON.flags(step.item?.flags),
                authenticationUI: try authenticationUI(step.item?.useAuthenticationUI))
        case .copyMatching:
            return keychain.copyMatching(try query(step.query), context: context, user: try user(step.user))
        case .update:
            return keychain.update(
                try query(step.query), service: step.changes?.service, account: step.changes?.account,
                data: step.changes?.data?.bytes, context: context, user: try user(step.user))
        case .delete:
            return keychain.delete(try query(step.query))
        case .sign:
            return keychain.sign(
                try query(step.query, defaultClass: .key), message: step.message?.bytes ?? [],
                context: context, user: try user(step.user))
        case .evaluatePolicy:
            guard let context else { throw ReferenceInputError("evaluatePolicy needs a context") }
            return keychain.evaluatePolicy(try policy(step.policy), context: context, user: try user(step.user))
        case .canEvaluatePolicy:
            return keychain.canEvaluatePolicy(try policy(step.policy), context: context)
        case .evaluateAccessControl:
            guard let context else { throw ReferenceInputError("evaluateAccessControl needs a context") }
            guard let operation = step.operation else {
                throw ReferenceInputError("operation must be one of " + KeychainOperation.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return keychain.evaluateAccessControl(
                try query(step.query, defaultClass: .key), operation: try model(operation),
                context: context, user: try user(step.user))
        case .invalidateContext:
            guard let context else { throw ReferenceInputError("invalidateContext needs a context") }
            return keychain.invalidate(context: context)
        case .device:
            guard let event = step.event else {
                throw ReferenceInputError("device step needs an event: " + DeviceEvent.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return keychain.apply(try model(event))
        }
    }
}
