import Dispatch
import Foundation
internal import KeychainAccessControl
internal import KeychainModel
@_exported import Security
package import SecuritySimulation

/// `LAContext`: one authentication context of the simulated device. Every
/// property and method asks the model (`KeychainEngine`) through the
/// simulation; the context itself holds only the model's id, so it can be
/// used from any thread. Pass it in a SecItem dictionary under
/// `kSecUseAuthenticationContext` to authenticate that call with it.
///
/// Completion handlers: the model answers at the call, so prompts are
/// raised and logged before the method returns; the reply then runs on a
/// global dispatch queue, as on a device (never on the caller's thread),
/// inside the simulation the context belongs to.
///
/// A context belongs to the simulation it was made in (``Simulation/current``);
/// after that simulation's reset it is stale: every evaluation answers
/// ``LAError/Code/invalidContext`` and a SecItem call given it sees no context.
open class LAContext: NSObject, SecContextHandle {
    /// The model's id of the context.
    let contextID: Int
    let simulation: Simulation
    let epoch: UInt64

    /// A new context, with no evaluation done.
    public override init() {
        let simulation = Simulation.current
        self.simulation = simulation
        (contextID, epoch) = simulation.withEngineStamped { $0.newContext() }
        super.init()
    }

    deinit {
        // Never under the simulation's lock: the release waits for the next call.
        simulation.releaseLater(context: contextID, epoch: epoch)
    }

    package func contextID(in target: Simulation) -> Int {
        target === simulation && target.epoch == epoch ? contextID : 0
    }

    /// Runs `body` with the model's id of this context; nil when the context is stale.
    private func run<T: Sendable>(_ body: (inout KeychainEngine, Int) -> T) -> T? {
        let id = contextID
        return simulation.withEngine(ifCurrent: epoch) { body(&$0, id) }
    }

    /// Runs a completion handler on a global queue, inside this context's simulation.
    private func reply(_ outcome: Evaluation, _ reply: @escaping (Bool, (any Error)?) -> Void) {
        let simulation = simulation
        // Apple's reply is not `Sendable`: it is handed to the queue and called there once.
        nonisolated(unsafe) let reply = reply
        DispatchQueue.global().async {
            Simulation.$current.withValue(simulation) { reply(outcome.succeeded, outcome.error) }
        }
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
        LABiometryType(run { $0.biometryType(context: $1) } ?? .none)
    }

    /// The enrolled set's state after a biometric check or evaluation, else nil (LA4; deprecated on iOS 18).
    open var evaluatedPolicyDomainState: Data? {
        run { $0.evaluatedPolicyDomainState(context: $1) }.flatMap { $0 }.map { Data($0) }
    }

    /// The authentication domains' state (iOS 18), read now.
    open var domainState: LADomainState {
        let (kind, hash) = run { ($0.biometryType(context: $1), $0.biometryStateHash(context: $1)) } ?? (.none, nil)
        return LADomainState(biometry: LADomainStateBiometry(biometryType: LABiometryType(kind), stateHash: hash.map { Data($0) }))
    }

    // MARK: Policies

    /// Whether `policy` can be evaluated now, without a prompt (LA1); when not,
    /// `error` receives an `NSError` in ``LAErrorDomain``.
    @discardableResult
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        let raw = policy.rawValue
        let outcome = run { $0.canEvaluatePolicy(context: $1, policy: raw) } ?? Self.stale
        if let code = outcome.code {
            error?.pointee = laNSError(code: code.rawValue, explanation: outcome.explanation)
        }
        return outcome.succeeded
    }

    /// Evaluates `policy`, prompting as the model decides; `reply` runs on a
    /// global queue with true, or false and the error.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String,
        reply: @escaping (Bool, (any Error)?) -> Void
    ) {
        self.reply(evaluate(policy, localizedReason), reply)
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
        localizedReason: String, reply: @escaping (Bool, (any Error)?) -> Void
    ) {
        self.reply(evaluate(accessControl, operation, localizedReason), reply)
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
        _ = run { $0.invalidate(context: $1) }
    }

    // MARK: Plumbing

    /// What a stale context answers (issue 52, item 2).
    private static let stale = LAOutcome(.invalidContext, rule: .la7, "the LAContext belongs to a simulation that was reset since")

    private var settings: ContextSettings {
        run { $0.settings(of: $1) } ?? ContextSettings()
    }

    private func updateSettings(_ change: (inout ContextSettings) -> Void) {
        var settings = self.settings
        change(&settings)
        let changed = settings
        _ = run { $0.setSettings(changed, of: $1) }
    }

    private func evaluate(_ policy: LAPolicy, _ reason: String) -> Evaluation {
        let raw = policy.rawValue
        return Evaluation(run { $0.evaluatePolicy(context: $1, policy: raw, reason: reason) } ?? Self.stale)
    }

    private func evaluate(
        _ accessControl: SecAccessControl, _ operation: LAAccessControlOperation,
        _ reason: String
    ) -> Evaluation {
        let value = accessControl.value
        let raw = operation.rawValue
        return Evaluation(
            run { $0.evaluateAccessControl(context: $1, accessControl: value, operation: raw, reason: reason) } ?? Self.stale)
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
