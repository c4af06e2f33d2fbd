import KeychainAccessControl

/// An `LAContext` as the model keeps it.
struct ContextState: Sendable {
    var settings = ContextSettings()
    /// What the context has proved (LA6: it stays satisfied until invalidated or, with a lifetime, expired).
    var evidence: Evidence = []
    var provedAt: Double?
    var invalidated = false
    /// `evaluatedPolicyDomainState` (LA4): set by a successful biometric check or evaluation.
    var domainState: [UInt8]?
    /// Whether `canEvaluatePolicy` has run (a context reports its `biometryType` after it).
    var policyChecked = false
}

/// Why an authorization did not go through.
enum Refusal {
    /// A keychain status, with its rule and reason.
    case status(SecStatus, Ruling, la: LAErrorCode?)
    /// `kSecUseAuthenticationUISkip`: the item is left out silently (AC7).
    case skipped
}

extension KeychainEngine {
    /// The evidence a context holds now (none once invalidated or expired).
    func evidence(of context: Int?) -> Evidence {
        guard let context, let state = contexts[context], !state.invalidated, let provedAt = state.provedAt else { return [] }
        if let contextLifetime, now - provedAt > contextLifetime { return [] }
        return state.evidence
    }

    /// What one answer proves on this device.
    func proof(of answer: PromptAnswer) -> Evidence {
        switch answer {
        case .biometryMatch: device.biometryUsable ? .biometry : []
        case .passcode: device.passcodeSet ? .passcode : []
        case .companion: device.companion ? .companion : []
        case .biometryNoMatch, .cancel, .fallback, .systemCancel: []
        }
    }

    /// The prompt's kind for a requirement on this device.
    func promptKind(_ requirement: Requirement) -> String {
        let text = requirement.description
        if text.contains("biometry") || (text.contains("userPresence") && device.biometryUsable) {
            return device.biometryUsable ? biometryKind.name : "passcode"
        }
        if text.contains("companion") { return "companion" }
        return "passcode"
    }

    /// Raises one prompt: takes the next queued answer (or the default) and logs it.
    mutating func prompt(kind: String, reason: String, operation: String, call: String) -> PromptAnswer? {
        let answer = answers.isEmpty ? defaultAnswer : answers.removeFirst()
        prompts.append(PromptRecord(kind: kind, reason: reason, operation: operation, call: call, answer: answer, time: now))
        return answer
    }

    /// Records what a context proved.
    mutating func record(_ proved: Evidence, in context: Int?) {
        guard let context, !proved.isEmpty, contexts[context]?.invalidated == false else { return }
        contexts[context]?.evidence.formUnion(proved)
        contexts[context]?.provedAt = now
    }

    /// Decides `operation` on an access control, prompting when the context
    /// has not proved enough (AC7, AC8, AC10, LA6, LA8). nil: allowed.
    mutating func authorize(
        _ access: AccessControl, _ operation: KeychainOperation, context: Int?, ui: SecQuery.AuthenticationUI,
        reason: String?, call: String, prompts count: inout Int
    ) -> Refusal? {
        var known = evidence(of: context)
        // LA5 (§9): the reuse window of the context passed to SecItem covers a biometric device unlock.
        if !known.contains(.biometry), reuseWindowCovers(context) != nil, device.biometryUsable {
            known.insert(.biometry)
            if case .allowed = access.evaluate(operation, device: device, evidence: known) { record(.biometry, in: context) }
        }
        let decision = access.evaluate(operation, device: device, evidence: known)
        switch decision {
        case .allowed:
            return nil
        case .denied(let refusal):
            // The access control's own refusal, with the rule and reason it gave (the one code table: KeychainError.Code).
            return .status(refusal.code.status, refusal.ruling, la: refusal.code.laError)
        case .needsAuthentication(let tree):
            if let context, contexts[context]?.invalidated == true {
                return .status(
                    .authFailed, Ruling(.ac10, "the LAContext was invalidated (LAError.invalidContext → errSecAuthFailed)"),
                    la: .invalidContext)
            }
            switch ui {
            case .fail:
                return .status(
                    .interactionNotAllowed, Ruling(.ac7, "kSecUseAuthenticationUIFail and \(tree) needs a prompt"), la: .notInteractive)
            case .skip:
                return .skipped
            case .allow:
                break
            }
            if let context, contexts[context]?.settings.interactionNotAllowed == true {
                return .status(
                    .interactionNotAllowed, Ruling(.la8, "the LAContext has interactionNotAllowed and \(tree) needs a prompt"),
                    la: .notInteractive)
            }
            let shown = reason ?? context.flatMap { contexts[$0]?.settings.localizedReason } ?? ""
            count += 1
            guard let answer = prompt(kind: promptKind(tree), reason: shown, operation: operation.rawValue, call: call) else {
                return .status(
                    .userCanceled,
                    Ruling(
                        .ac10, "no answer was queued for the prompt \(call) raised (the simulation's strict default counts it as a cancel)"),
                    la: .userCancel)
            }
            switch answer {
            case .cancel:
                return .status(
                    .userCanceled, Ruling(.ac10, "the user canceled the prompt (LAError.userCancel → errSecUserCanceled)"), la: .userCancel)
            case .systemCancel:
                return .status(
                    .authFailed, Ruling(.ac10, "the system canceled the prompt (LAError.systemCancel → errSecAuthFailed)"),
                    la: .systemCancel)
            case .fallback:
                return .status(
                    .authFailed, Ruling(.ac10, "the user chose the fallback (LAError.userFallback → errSecAuthFailed)"), la: .userFallback)
            case .biometryMatch, .biometryNoMatch, .passcode, .companion:
                break
            }
            let proved = proof(of: answer)
            guard access.evaluate(operation, device: device, evidence: known.union(proved)) == .allowed else {
                return .status(
                    .authFailed,
                    Ruling(
                        .ac10, "the answer \(answer.rawValue) does not satisfy \(tree) (LAError.authenticationFailed → errSecAuthFailed)"),
                    la: .authenticationFailed)
            }
            record(proved, in: context)
            return nil
        }
    }
}
