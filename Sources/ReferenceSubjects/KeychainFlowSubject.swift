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

    static func policy(_ name: Contract.Policy?) throws(ReferenceInputError) -> Contract.Policy {
        guard let name else {
            throw ReferenceInputError("policy must be one of " + Contract.Policy.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return name
    }

    static func user(_ name: UserName?) throws(ReferenceInputError) -> UserAnswer? {
        guard let name else { return nil }
        return try model(name) as UserAnswer
    }

    /// One step on the simulator: the contract's item, query and changes
    /// go to it as the trace wrote them.
    static func run(_ step: Contract.Step, on keychain: inout KeychainSimulator) throws -> StepOutcome {
        let context = step.context
        switch step.op {
        case .add:
            return try keychain.add(step.item ?? Contract.Item())
        case .generateKey:
            return try keychain.generateKey(step.item ?? Contract.Item())
        case .copyMatching:
            return try keychain.copyMatching(step.query, context: context, user: try user(step.user))
        case .update:
            return try keychain.update(step.query, changes: step.changes, context: context, user: try user(step.user))
        case .delete:
            return try keychain.delete(step.query)
        case .sign:
            return try keychain.sign(step.query, message: step.message?.bytes ?? [], context: context, user: try user(step.user))
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
            return try keychain.evaluateAccessControl(
                step.query, operation: try model(operation), context: context, user: try user(step.user))
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
