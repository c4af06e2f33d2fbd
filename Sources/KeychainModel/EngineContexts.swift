import Crypto
import Foundation
import KeychainAccessControl

/// The most a reuse duration can be (LA5; 300 s is observed, rule book §1h).
public let maximumAllowableReuseDuration: Double = 300

extension KeychainEngine {
    mutating func finishLA(_ call: String, _ outcome: LAOutcome) -> LAOutcome {
        log("LAContext.\(call)", status: outcome.code?.rawValue ?? 0, outcome.ruling, prompts: outcome.prompts)
        return outcome
    }

    /// A new `LAContext`: its id.
    public mutating func newContext() -> Int {
        let id = nextContext
        nextContext += 1
        contexts[id] = ContextState()
        return id
    }

    /// Forgets a context no one holds any more.
    public mutating func releaseContext(_ context: Int) { contexts[context] = nil }

    public func settings(of context: Int) -> ContextSettings { contexts[context]?.settings ?? ContextSettings() }

    /// Sets a context's properties; the reuse duration is capped at 300 s (LA5).
    public mutating func setSettings(_ settings: ContextSettings, of context: Int) {
        var capped = settings
        capped.allowableReuseDuration = min(max(settings.allowableReuseDuration, 0), maximumAllowableReuseDuration)
        contexts[context]?.settings = capped
    }

    /// The biometry domain state: a hash of the enrolled set, per app (LA4); nil when nothing is enrolled.
    var currentDomainState: [UInt8]? {
        guard device.biometry == .enrolled || device.biometry == .lockout else { return nil }
        let seed = "\(app.applicationIdentifier)|\(biometryKind.rawValue)|\(device.enrollmentGeneration)"
        return Array(SHA256.hash(data: Data(seed.utf8)))
    }

    /// LA5: whether a biometric device unlock lies within the context's reuse
    /// window (the reason, or nil). Evaluations and keychain reads through
    /// the context both take it (§9).
    func reuseWindowCovers(_ context: Int?) -> String? {
        guard let context, let state = contexts[context], !state.invalidated else { return nil }
        let window = state.settings.allowableReuseDuration
        guard window > 0, let unlocked = lastBiometricUnlock, now - unlocked <= window else { return nil }
        return "the device was unlocked with biometry \(now - unlocked) s ago, within the reuse duration \(window) s"
    }

    /// What keeps `policy` from being evaluated, or nil (LA1–LA3).
    func obstacle(_ policy: LAPolicyValue) -> (LAErrorCode, SecRule, String)? {
        let biometry: (LAErrorCode, SecRule, String)? = {
            // LA2 (§9): not available, not enrolled, locked out come first; only
            // usable biometry lets a missing passcode answer passcodeNotSet.
            if biometryKind == .none { return (.biometryNotAvailable, .la2, "the device has no biometry") }
            if let obstacle = device.biometryObstacle { return (obstacle, .la2, "biometry is \(device.biometry.rawValue)") }
            if !device.passcodeSet { return (.passcodeNotSet, .la2, "biometry needs a passcode, and none is set") }
            return nil
        }()
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics:
            return biometry
        case .deviceOwnerAuthentication:
            return device.passcodeSet ? nil : (.passcodeNotSet, .la2, "no passcode is set")
        case .deviceOwnerAuthenticationWithCompanion:
            if device.companion { return nil }
            if device.unlockOnlyCompanion {
                return (.companionUnlockOnly, .la3, "the only companion is a Watch set up to unlock the phone: -1000, as observed")
            }
            return (.companionNotAvailable, .la3, "no paired, nearby companion that can authenticate")
        case .deviceOwnerAuthenticationWithBiometricsOrCompanion:
            if biometry == nil || device.companion { return nil }
            return biometry
        case .deviceOwnerAuthenticationWithWristDetection:
            return (.parameter, .la3, "deviceOwnerAuthenticationWithWristDetection is a watchOS policy")
        }
    }

    /// `canEvaluatePolicy(_:error:)`: never prompts (LA1); a successful
    /// biometric check sets the domain state (LA4).
    public mutating func canEvaluatePolicy(context: Int, policy: Int) -> LAOutcome {
        finishLA("canEvaluatePolicy", checkPolicy(context: context, policy: policy))
    }

    mutating func checkPolicy(context: Int, policy raw: Int) -> LAOutcome {
        guard let policy = LAPolicyValue(rawValue: raw) else { return LAOutcome(.parameter, rule: .la1, "\(raw) is not an LAPolicy") }
        guard contexts[context] != nil else { return LAOutcome(.invalidContext, rule: .la7, "no such context") }
        contexts[context]?.policyChecked = true
        if contexts[context]?.invalidated == true { return LAOutcome(.invalidContext, rule: .la7, "the context was invalidated") }
        if let (code, rule, reason) = obstacle(policy) { return LAOutcome(code, rule: rule, reason) }
        if policy == .deviceOwnerAuthenticationWithBiometrics || policy == .deviceOwnerAuthenticationWithBiometricsOrCompanion {
            let state = currentDomainState
            contexts[context]?.domainState = state
        }
        return LAOutcome(nil, rule: .la1, "\(policy) can be evaluated (no prompt)")
    }

    /// The evidence that satisfies `policy`, and whether a passcode may stand in.
    func satisfies(_ evidence: Evidence, _ policy: LAPolicyValue) -> Bool {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics: evidence.contains(.biometry)
        case .deviceOwnerAuthentication: !evidence.isDisjoint(with: [.biometry, .passcode, .companion])
        case .deviceOwnerAuthenticationWithCompanion: evidence.contains(.companion)
        case .deviceOwnerAuthenticationWithBiometricsOrCompanion: !evidence.isDisjoint(with: [.biometry, .companion])
        case .deviceOwnerAuthenticationWithWristDetection: false
        }
    }

    /// `evaluatePolicy(_:localizedReason:reply:)`.
    public mutating func evaluatePolicy(context: Int, policy: Int, reason: String) -> LAOutcome {
        finishLA("evaluatePolicy", evaluate(context: context, policy: policy, reason: reason))
    }

    mutating func evaluate(context: Int, policy raw: Int, reason: String) -> LAOutcome {
        guard let policy = LAPolicyValue(rawValue: raw) else { return LAOutcome(.parameter, rule: .la1, "\(raw) is not an LAPolicy") }
        guard let state = contexts[context] else { return LAOutcome(.invalidContext, rule: .la7, "no such context") }
        if state.invalidated { return LAOutcome(.invalidContext, rule: .la7, "the context was invalidated: it cannot evaluate again") }
        if reason.isEmpty {
            wouldCrashOnDevice.append("LAContext.evaluatePolicy with an empty localizedReason")
            return LAOutcome(
                .parameter, rule: .la9,
                "an empty localizedReason: on a device the app dies (NSInvalidArgumentException); here no prompt and LAError.parameter")
        }
        if let (code, rule, why) = obstacle(policy) { return LAOutcome(code, rule: rule, why) }
        if satisfies(evidence(of: context), policy) {
            return LAOutcome(nil, rule: .la6, "the context has already authenticated: no new prompt")
        }
        if policy != .deviceOwnerAuthenticationWithCompanion, let why = reuseWindowCovers(context) {
            record(.biometry, in: context)
            return LAOutcome(nil, rule: .la5, why)
        }
        if state.settings.interactionNotAllowed {
            return LAOutcome(.notInteractive, rule: .la8, "interactionNotAllowed and the policy needs a prompt")
        }
        let kind =
            policy == .deviceOwnerAuthenticationWithCompanion
            ? "companion"
            : (device.biometryUsable && biometryKind != .none ? biometryKind.name : "passcode")
        var answer = prompt(kind: kind, reason: reason, operation: "evaluatePolicy", call: "LAContext.evaluatePolicy")
        if answer == .fallback && policy == .deviceOwnerAuthentication {
            // The fallback button of deviceOwnerAuthentication opens the passcode entry of the same prompt.
            answer = answers.isEmpty ? defaultAnswer : answers.removeFirst()
        }
        return conclude(answer, policy: policy, context: context)
    }

    /// What an answered prompt makes of an evaluation.
    mutating func conclude(_ answer: PromptAnswer?, policy: LAPolicyValue, context: Int) -> LAOutcome {
        guard let answer else {
            return LAOutcome(
                .userCancel, rule: .la2, "no answer was queued for the prompt (the simulation's strict default counts it as a cancel)",
                prompts: 1)
        }
        switch answer {
        case .cancel: return LAOutcome(.userCancel, rule: .la2, "the user canceled", prompts: 1)
        case .systemCancel: return LAOutcome(.systemCancel, rule: .la2, "the system canceled the prompt", prompts: 1)
        case .fallback: return LAOutcome(.userFallback, rule: .la2, "the user chose the fallback button", prompts: 1)
        case .biometryMatch, .biometryNoMatch, .passcode, .companion: break
        }
        let proved = proof(of: answer)
        let allowed: Evidence = policy == .deviceOwnerAuthentication ? [.biometry, .passcode, .companion] : [.biometry, .companion]
        guard satisfies(proved.intersection(allowed), policy) else {
            return LAOutcome(.authenticationFailed, rule: .la2, "the answer \(answer.rawValue) does not satisfy \(policy)", prompts: 1)
        }
        record(proved, in: context)
        if proved.contains(.biometry) {
            let state = currentDomainState
            contexts[context]?.domainState = state
        }
        return LAOutcome(nil, rule: .la2, "authenticated with \(answer.rawValue)", prompts: 1)
    }

    /// `evaluateAccessControl(_:operation:localizedReason:reply:)`; `operation` is the raw value.
    public mutating func evaluateAccessControl(
        context: Int, accessControl: SecAccessControlValue, operation: Int,
        reason: String
    ) -> LAOutcome {
        finishLA(
            "evaluateAccessControl", evaluateControl(context: context, accessControl: accessControl, operation: operation, reason: reason))
    }

    mutating func evaluateControl(context: Int, accessControl: SecAccessControlValue, operation raw: Int, reason: String) -> LAOutcome {
        switch bind(protection: accessControl.protection, flags: accessControl.flags) {
        case .failure(let outcome): return LAOutcome(.authenticationFailed, outcome.ruling)
        case .success(let bound): return evaluate(bound, context: context, operation: raw, reason: reason)
        }
    }

    /// evaluateAccessControl on a bound access control: the device's lock does
    /// not matter (LocalAuthentication evaluates the constraints, not the class).
    mutating func evaluate(_ access: AccessControl, context: Int, operation raw: Int, reason: String) -> LAOutcome {
        guard let operation = LAAccessControlOperationValue(rawValue: raw) else {
            return LAOutcome(.parameter, rule: .la1, "\(raw) is not an LAAccessControlOperation")
        }
        guard let state = contexts[context] else { return LAOutcome(.invalidContext, rule: .la7, "no such context") }
        if state.invalidated { return LAOutcome(.invalidContext, rule: .la7, "the context was invalidated") }
        if reason.isEmpty {
            wouldCrashOnDevice.append("LAContext.evaluateAccessControl with an empty localizedReason")
            return LAOutcome(
                .parameter, rule: .la9, "an empty localizedReason: on a device the app dies; here no prompt and LAError.parameter")
        }
        var prompts = 0
        let saved = device
        device.locked = false
        device.unlockedSinceBoot = true
        defer { device = saved }
        guard
            let refusal = authorize(
                access, operation.operation, context: context, ui: .allow, reason: reason,
                call: "LAContext.evaluateAccessControl", prompts: &prompts)
        else {
            return LAOutcome(
                nil, rule: .ac8, prompts == 0 ? "the context already satisfies the access control" : "authenticated", prompts: prompts)
        }
        guard case .status(_, let ruling, let la) = refusal else {
            return LAOutcome(.authenticationFailed, rule: .ac7, "skipped", prompts: prompts)
        }
        return LAOutcome(la ?? .authenticationFailed, ruling, prompts: prompts)
    }

    /// `evaluateAccessControl` with the access control of the first item
    /// `query` finds (the keychain-flow traces name items, not access-control
    /// objects). A Secure Enclave key whose access control lacks
    /// privateKeyUsage has no key-use entry (AC3): -1009, no prompt. No item:
    /// the query's keychain failure.
    public mutating func evaluateAccessControl(
        context: Int, itemQuery: [String: SecValue], operation raw: Int,
        reason: String
    ) -> Result<LAOutcome, SecOutcome> {
        let item: StoredSecItem
        do { item = try firstMatch(itemQuery) } catch { return .failure(error) }
        let keyUse = LAAccessControlOperationValue(rawValue: raw)?.operation.isKeyUse == true
        let access = governingAccess(item)
        if keyUse, let key = item.key, keys[key]?.secureEnclave == true, !access.flags.isEmpty,
            !access.flags.contains(.privateKeyUsage)
        {
            return .success(
                finishLA(
                    "evaluateAccessControl",
                    LAOutcome(.operationNotAllowed, rule: .ac3, "the Secure Enclave key's access control has no key-use entry")))
        }
        return .success(finishLA("evaluateAccessControl", evaluate(access, context: context, operation: raw, reason: reason)))
    }

    /// `invalidate()`: the context cannot evaluate again; twice has no effect (LA7).
    public mutating func invalidate(context: Int) {
        guard contexts[context] != nil else { return }
        contexts[context]?.invalidated = true
        contexts[context]?.evidence = []
        log("LAContext.invalidate", status: 0, Ruling(.la7, "invalidated"))
    }

    /// `evaluatedPolicyDomainState` (LA4).
    public func evaluatedPolicyDomainState(context: Int) -> [UInt8]? { contexts[context]?.domainState }

    /// `domainState.biometry.stateHash` (LA4): nil when nothing is enrolled.
    public func biometryStateHash(context: Int) -> [UInt8]? { currentDomainState }

    /// `biometryType` as a context reports it: `.none` until `canEvaluatePolicy` has run on it, as on a device.
    public func biometryType(context: Int) -> BiometryKind {
        contexts[context]?.policyChecked == true ? biometryKind : .none
    }
}
