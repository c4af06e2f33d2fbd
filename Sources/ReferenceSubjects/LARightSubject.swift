import VectorContract
import Foundation
import KeychainAccessControl
import LocalAuthorization
import TrustSuiteSupport

/// The `la-right` family: a trace on one current right (plain or persisted)
/// with a right store and a simulated authenticator; each step answers the
/// current right's state and the error, if any.
public enum LARightSubject {
    enum Current {
        case plain(Right)
        case persisted(PersistedRight)

        var right: Right {
            switch self {
            case .plain(let right): return right
            case .persisted(let persisted): return persisted.right
            }
        }
    }

    typealias Contract = LARightFamily

    static func evaluate(_ input: Contract.Input) async throws -> SubjectAnswer {
        let (steps, notifications, reasons) = try await trace(input)
        var answer = SubjectAnswer(.valid, output: .object(["steps": .array(steps), "notifications": notifications]))
        // Each step's state, and the error's reason where it failed.
        answer.explanation = zip(input.steps, zip(steps, reasons)).enumerated().map { index, entry in
            let (step, (result, reason)) = entry
            let state = result["state"]?.stringValue ?? "?"
            return "step \(index + 1) \(step.op.rawValue) → \(state)" + (reason.map { ", \($0)" } ?? "")
        }.joined(separator: "\n")
        return answer
    }

    /// Runs a trace and returns each step as written with its answer
    /// `{state, error?}`, and the notification counts.
    public static func trace(_ input: JSONValue) async throws -> (steps: [(step: JSONValue, answer: JSONValue)], notifications: JSONValue) {
        let (answers, notifications, _) = try await trace(Contract.read(input))
        return (zip(input["steps"]?.arrayValue ?? [], answers).map { (step: $0, answer: $1) }, notifications)
    }

    static func trace(_ input: Contract.Input) async throws -> (steps: [JSONValue], notifications: JSONValue, reasons: [String?]) {
        let requirement: RightRequirement = try model(input.requirement ?? .default)
        let environment = AuthorizationEnvironment(device: try KeychainJSON.device(input.device))
        let store = RightStore(environment: environment)
        var current = Current.plain(await Right(requirement: requirement, environment: environment))
        for (index, step) in input.steps.enumerated() where step.op == .device && step.event == nil {
            throw ReferenceInputError(
                "step \(index): device needs an event: " + DeviceEvent.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var results: [JSONValue] = []
        var reasons: [String?] = []
        for step in input.steps {
            var error: LAModelError.Code? = nil
            do throws(LAModelError) {
                try await run(step, current: &current, store: store, environment: environment)
                reasons.append(nil)
            } catch let failure {
                error = failure.code
                reasons.append(failure.description)
            }
            var answer: [String: JSONValue] = ["state": .string(await current.right.state.rawValue)]
            if let error { answer["error"] = .string(error.rawValue) }
            results.append(.object(answer))
        }
        let notifications: JSONValue = .object([
            "didBecomeAuthorized": .int(Int64(await environment.count(.didBecomeAuthorized))),
            "didBecomeUnauthorized": .int(Int64(await environment.count(.didBecomeUnauthorized))),
        ])
        return (results, notifications, reasons)
    }

    static let message = Array("trustsuite la-right".utf8)
    static func run(
        _ step: Contract.Step, current: inout Current, store: RightStore,
        environment: AuthorizationEnvironment
    ) async throws(LAModelError) {
        func persisted() throws(LAModelError) -> PersistedRight {
            guard case .persisted(let right) = current else {
                throw LAModelError(.notFound, "the current right has no key (not persisted)")
            }
            return right
        }
        switch step.op {
        case .authorize:
            if let name = step.user, let answer = UserAnswer(rawValue: name.rawValue) { await environment.enqueue(answer) }
            do throws(LAModelError) {
                try await current.right.authorize(localizedReason: step.reason ?? "Continue")
                await environment.clearAnswers()
            } catch {
                await environment.clearAnswers()
                throw error
            }
        case .checkCanAuthorize:
            try await current.right.checkCanAuthorize()
        case .deauthorize:
            await current.right.deauthorize()
        case .release:
            await current.right.release()
        case .device:
            if let name = step.event, let event = DeviceEvent(rawValue: name.rawValue) { await environment.apply(event) }
        case .save:
            let saved = try await store.saveRight(current.right, identifier: step.identifier ?? "", secret: step.secret?.bytes)
            current = .persisted(saved)
        case .load:
            current = .persisted(try await store.right(forIdentifier: step.identifier ?? ""))
        case .remove:
            await store.removeRight(forIdentifier: step.identifier ?? "")
        case .removeAll:
            await store.removeAllRights()
        case .sign:
            let right = try persisted()
            let signature = try await right.sign(message)
            guard right.verify(signature, for: message) else { throw LAModelError(.authenticationFailed, "signature does not verify") }
        case .decrypt:
            let right = try persisted()
            guard let sealed = right.encrypt(message) else { throw LAModelError(.authenticationFailed, "encryption failed") }
            guard try await right.decrypt(sealed) == message else { throw LAModelError(.authenticationFailed, "decryption mismatch") }
        case .exchangeKeys:
            let right = try persisted()
            _ = try await right.exchangeKeys(with: right.publicKey)
        case .exportPublicKey:
            let right = try persisted()
            if await right.isDeallocated { throw LAModelError(.rightDeallocated, "the persisted right no longer exists") }
        case .loadSecret:
            _ = try await persisted().loadSecret()
        }
    }
}
