import Dispatch
import Foundation
internal import KeychainAccessControl
internal import KeychainModel
@_exported import Security
internal import SecuritySimulation

/// `LAContext`: one authentication context of the simulated device. Every
/// property and method asks the model (`KeychainEngine`) through the
/// simulation; the context itself holds only the model's id, so it can be
/// used from any thread. Pass it in a SecItem dictionary under
/// `kSecUseAuthenticationContext` to authenticate that call with it.
///
/// Completion handlers: the model answers at the call, so prompts are
/// raised and logged before the method returns; the reply then runs on a
/// global dispatch queue, as on a device (never on the caller's thread).
open class LAContext: NSObject, SecContextHandle, @unchecked Sendable {
    /// The model's id of the context.
    package let contextID: Int

    /// A new context, with no evaluation done.
    public override init() {
        contextID = Simulation.shared.withEngine { $0.newContext() }
        super.init()
    }

    deinit {
        let id = contextID
        Simulation.shared.withEngine { $0.releaseContext(id) }
    }

    // MARK: Settings

    /// The reason shown in prompts raised through this context (SecItem calls included).
    open var localizedReason: String {
        get { settings.localizedReason }
        set { updateSettings { $0.localizedReason = newValue } }
    }

    /// The fallback button's title; nil for the system's, "" hides it.
    open var localizedFallbackTitle: String? {
        get { settings.localizedFallbackTitle }
        set { updateSettings { $0.localizedFallbackTitle = newValue } }
    }

    /// The cancel button's title; nil for the system's.
    open var localizedCancelTitle: String? {
        get { settings.localizedCancelTitle }
        set { updateSettings { $0.localizedCancelTitle = newValue } }
    }

    /// When true, an evaluation that needs a prompt fails with ``LAError/Code/notInteractive``.
    open var interactionNotAllowed: Bool {
        get { settings.interactionNotAllowed }
        set { updateSettings { $0.interactionNotAllowed = newValue } }
    }

    /// How long a device unlock with biometry satisfies this context without a
    /// new prompt (rule book LA5); the model caps it at
    /// ``LATouchIDAuthenticationMaximumAllowableReuseDuration``.
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { settings.allowableReuseDuration }
        set { updateSettings { $0.allowableReuseDuration = newValue } }
    }

    // MARK: State

    /// The device's biometry, as known once a policy has been checked on this context.
    open var biometryType: LABiometryType {
        let id = contextID
        return LABiometryType(Simulation.shared.withEngine { $0.biometryType(context: id) })
    }

    /// The enrolled set's state after a biometric check or evaluation, else nil (LA4; deprecated on iOS 18).
    open var evaluatedPolicyDomainState: Data? {
        let id = contextID
        return Simulation.shared.withEngine { $0.evaluatedPolicyDomainState(context: id) }.map { Data($0) }
    }

    /// The authentication domains' state (iOS 18), read now.
    open var domainState: LADomainState {
        let id = contextID
        let (kind, hash) = Simulation.shared.withEngine { ($0.biometryType(context: id), $0.biometryStateHash(context: id)) }
        return LADomainState(biometry: LADomainStateBiometry(biometryType: LABiometryType(kind), stateHash: hash.map { Data($0) }))
    }

    // MARK: Policies

    /// Whether `policy` can be evaluated now, without a prompt (LA1); when not,
    /// `error` receives an `NSError` in ``LAErrorDomain``.
    @discardableResult
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        let id = contextID
        let outcome = Simulation.shared.withEngine { $0.canEvaluatePolicy(context: id, policy: policy.rawValue) }
        if let code = outcome.code {
            error?.pointee = laNSError(code: code.rawValue, explanation: outcome.explanation)
        }
        return outcome.succeeded
    }

    /// Evaluates `policy`, prompting as the model decides; `reply` runs on a
    /// global queue with true, or false and the error.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let outcome = evaluate(policy, localizedReason)
        DispatchQueue.global().async { reply(outcome.succeeded, outcome.error) }
    }

    /// Evaluates `policy`: true, or throws the error.
    @discardableResult
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        let outcome = evaluate(policy, localizedReason)
        if let error = outcome.error { throw error }
        return outcome.succeeded
    }

    /// Evaluates `accessControl` for `operation`; `reply` runs on a global
    /// queue with true, or false and the error.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation,
        localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let outcome = evaluate(accessControl, operation, localizedReason)
        DispatchQueue.global().async { reply(outcome.succeeded, outcome.error) }
    }

    /// Evaluates `accessControl` for `operation`: true, or throws the error.
    @discardableResult
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation,
        localizedReason: String
    ) async throws -> Bool {
        let outcome = evaluate(accessControl, operation, localizedReason)
        if let error = outcome.error { throw error }
        return outcome.succeeded
    }

    /// Ends the context: later evaluations fail with ``LAError/Code/invalidContext`` (LA7).
    open func invalidate() {
        let id = contextID
        Simulation.shared.withEngine { $0.invalidate(context: id) }
    }

    // MARK: Plumbing

    private var settings: ContextSettings {
        let id = contextID
        return Simulation.shared.withEngine { $0.settings(of: id) }
    }

    private func updateSettings(_ change: (inout ContextSettings) -> Void) {
        let id = contextID
        Simulation.shared.withEngine { engine in
            var settings = engine.settings(of: id)
            change(&settings)
            engine.setSettings(settings, of: id)
        }
    }

    private func evaluate(_ policy: LAPolicy, _ reason: String) -> Evaluation {
        let id = contextID
        return Evaluation(Simulation.shared.withEngine { $0.evaluatePolicy(context: id, policy: policy.rawValue, reason: reason) })
    }

    private func evaluate(
        _ accessControl: SecAccessControl, _ operation: LAAccessControlOperation,
        _ reason: String
    ) -> Evaluation {
        let id = contextID
        let value = accessControl.value
        return Evaluation(
            Simulation.shared.withEngine {
                $0.evaluateAccessControl(context: id, accessControl: value, operation: operation.rawValue, reason: reason)
            })
    }
}

/// What an evaluation hands its caller: success, or the error.
private struct Evaluation: Sendable {
    let succeeded: Bool
    let error: (any Error)?

    init(_ outcome: LAOutcome) {
        succeeded = outcome.succeeded
        error = laError(code: outcome.code?.rawValue, explanation: outcome.explanation)
    }
}

extension LABiometryType {
    /// The model's biometry kind.
    init(_ kind: BiometryKind) {
        switch kind {
        case .none: self = .none
        case .touchID: self = .touchID
        case .faceID: self = .faceID
        case .opticID: self = .opticID
        }
    }
}
