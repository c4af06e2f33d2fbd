import Foundation
import LocalAuthentication

// LAContext as apps write it, in Swift 6 mode: compiled, never run here
// (an evaluation would consume the shared simulation's prompt answers).

enum ContextPatterns {
    /// `canEvaluatePolicy` with an `NSError?` passed `&error`, the reply form,
    /// `LAError` pattern matches inside the reply.
    static func unlock(onDone: @escaping @Sendable (String) -> Void) {
        let context = LAContext()
        context.localizedCancelTitle = "Not now"
        context.localizedFallbackTitle = ""
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
            if let error, error.code == LAError.biometryNotEnrolled.rawValue || error.code == Int(kLAErrorBiometryLockout) {
                onDone("enrol or unlock biometry")
            } else if let laError = error as? LAError, laError.code == .passcodeNotSet {
                onDone("set a passcode")
            }
            return
        }
        switch context.biometryType {
        case .faceID, .opticID: onDone("face")
        case .touchID: onDone("finger")
        case .none: onDone("none")
        @unknown default: onDone("?")
        }
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, error in
            guard !success else { return onDone("ok") }
            switch error {
            case LAError.userCancel?, LAError.systemCancel?: onDone("cancelled")
            case LAError.userFallback?: onDone("fallback")
            default: onDone((error as NSError?)?.domain ?? "")
            }
        }
    }

    /// The async form; `catch LAError.userCancel`, `catch let e as LAError where …`.
    static func unlockAsync() async -> Bool {
        let context = LAContext()
        context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration
        context.interactionNotAllowed = false
        do {
            return try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in")
        } catch LAError.userCancel {
            return false
        } catch let error as LAError where error.code == .biometryLockout {
            return false
        } catch let error as LAError {
            _ = LAError(error.code, userInfo: [NSLocalizedDescriptionKey: "again"])
            return false
        } catch {
            return (error as NSError).domain == LAErrorDomain
        }
    }

    /// Domain state for "biometry changed" checks, old and iOS 18 shapes.
    static func enrolmentChanged(since saved: Data?) -> Bool {
        let context = LAContext()
        _ = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
        let old = context.evaluatedPolicyDomainState
        let new = context.domainState.biometry.stateHash
        context.invalidate()
        return (new ?? old) != saved
    }

    /// `evaluateAccessControl` in both forms, with an access control from Security.
    static func authorize(_ access: SecAccessControl) async throws {
        let context = LAContext()
        context.evaluateAccessControl(access, operation: .useItem, localizedReason: "Read") { _, _ in }
        try await context.evaluateAccessControl(access, operation: .useKeySign, localizedReason: "Sign")
        throw LAError(.appCancel)
    }

    /// A mock subclass, as apps' own tests write one.
    final class AlwaysSucceeds: LAContext {
        override func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { true }
        override func evaluatePolicy(
            _ policy: LAPolicy, localizedReason: String,
            reply: @escaping (Bool, (any Error)?) -> Void
        ) {
            reply(true, nil)
        }
    }
}
