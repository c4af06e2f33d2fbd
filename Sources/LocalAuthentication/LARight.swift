import Dispatch
import Foundation
import Synchronization
internal import KeychainAccessControl
internal import KeychainModel
internal import LocalAuthorization
internal import SecuritySimulation

/// `LABiometryFallbackRequirement`: what a biometric requirement falls back
/// to (rule book LA11: only `.default` and `.devicePasscode`).
open class LABiometryFallbackRequirement: NSObject {
    let isDevicePasscode: Bool

    init(devicePasscode: Bool) {
        isDevicePasscode = devicePasscode
        super.init()
    }

    /// The system's default fallback (this model takes the device passcode, docs/models/la-rights.md).
    open class var `default`: LABiometryFallbackRequirement { LABiometryFallbackRequirement(devicePasscode: false) }
    /// The device passcode.
    open class var devicePasscode: LABiometryFallbackRequirement { LABiometryFallbackRequirement(devicePasscode: true) }
}

/// `LAAuthenticationRequirement`: what authorizing a right asks of the user
/// (rule book LA11: `.default`, `.biometry`, `.biometryCurrentSet`,
/// `.biometry(fallback:)`), the `LocalAuthorization` model's requirement.
open class LAAuthenticationRequirement: NSObject {
    let model: RightRequirement

    init(_ model: RightRequirement) {
        self.model = model
        super.init()
    }

    /// Biometry, Apple Watch or the device passcode.
    open class var `default`: LAAuthenticationRequirement { LAAuthenticationRequirement(.default) }
    /// Biometry, with no fallback.
    open class var biometry: LAAuthenticationRequirement { LAAuthenticationRequirement(.biometry) }
    /// Biometry of the set enrolled now: a change to the enrolled set invalidates the right.
    open class var biometryCurrentSet: LAAuthenticationRequirement { LAAuthenticationRequirement(.biometryCurrentSet) }

    /// Biometry, falling back as `fallback` says.
    open class func biometry(fallback: LABiometryFallbackRequirement) -> Self {
        let made = LAAuthenticationRequirement(fallback.isDevicePasscode ? .biometryFallbackDevicePasscode : .biometryFallbackDefault)
        // `Self` as Apple declares it; a subclass of this class, which an app
        // has no reason to make, cannot be made here (docs/apple-api.md).
        guard let requirement = made as? Self else {
            preconditionFailure("LAAuthenticationRequirement.biometry(fallback:) called on a subclass: not supported on Linux")
        }
        return requirement
    }
}

/// `LARight` (iOS 16): a right to do something in the app, granted by
/// authorizing it, over the `LocalAuthorization` model's `Right`. Its
/// prompt comes from the simulation's answer queue and goes to its prompt
/// log, as `LAContext`'s do. Completion handlers run on a global queue.
open class LARight: NSObject {
    /// `LARight.State` with Apple's raw values.
    public enum State: Int, Sendable, Hashable {
        case unknown = 0
        case authorizing = 1
        case authorized = 2
        case notAuthorized = 3
    }

    let model: Right
    /// The simulation the right was made in, and its reset generation: a
    /// right, its key and its secret die with it (issue 61, item 2), as
    /// `SecKey` and `LAContext` do.
    let simulation = Simulation.current
    let epoch = Simulation.current.epoch
    /// The state as the last call left it, and the app's tag.
    private let mutable = Mutex<(state: State, tag: Int)>((.unknown, 0))

    /// A right with the `.default` requirement (designated, as Apple's: a
    /// subclass's initializer can call `super.init()`).
    public override init() {
        model = Self.model(.default)
        super.init()
    }

    /// A right with `requirement`.
    public init(requirement: LAAuthenticationRequirement) {
        model = Self.model(requirement)
        super.init()
    }

    /// The model's right for `requirement`, bound to the current
    /// simulation's enrolled set.
    private static func model(_ requirement: LAAuthenticationRequirement) -> Right {
        let simulation = Simulation.current
        let bound = simulation.withEngine { $0.device.enrollmentGeneration }
        return Right(
            requirement: requirement.model, environment: simulation.services.rightStore.environment, boundEnrollment: bound)
    }

    init(model: Right) {
        self.model = model
        super.init()
    }

    /// The right's state, as its last call left it.
    open var state: State { mutable.withLock { $0.state } }

    /// A number of the app's choosing.
    open var tag: Int {
        get { mutable.withLock { $0.tag } }
        set { mutable.withLock { $0.tag = newValue } }
    }

    /// Authorizes the right: one prompt (an empty reason raises none and
    /// fails, LA9), then authorized, or notAuthorized and the error thrown.
    open func authorize(localizedReason: String) async throws {
        try checkCurrent()
        if !localizedReason.allSatisfy(\.isWhitespace) { update(.authorizing) }
        do {
            try await model.authorize(localizedReason: localizedReason)
            await sync()
            log("LARight.authorize", nil, "authorized")
        } catch {
            await sync()
            log("LARight.authorize", error.code, error.reason)
            throw rightError(error)
        }
    }

    /// Authorizes the right; `handler` gets nil or the error, on a global queue.
    open func authorize(localizedReason: String, completion handler: @escaping ((any Error)?) -> Void) {
        inTask { [self] in
            do {
                try await authorize(localizedReason: localizedReason)
                handler(nil)
            } catch {
                handler(error)
            }
        }
    }

    /// Throws what keeps the right from being authorized now (no passcode, no
    /// biometry, lockout); never prompts, never changes the state.
    open func checkCanAuthorize() async throws {
        try checkCurrent()
        do {
            try await model.checkCanAuthorize()
            log("LARight.checkCanAuthorize", nil, "the requirement can be evaluated")
        } catch {
            log("LARight.checkCanAuthorize", error.code, error.reason)
            throw rightError(error)
        }
    }

    /// ``checkCanAuthorize()``; `handler` gets nil or the error, on a global queue.
    open func checkCanAuthorize(completion handler: @escaping ((any Error)?) -> Void) {
        inTask { [self] in
            do {
                try await checkCanAuthorize()
                handler(nil)
            } catch {
                handler(error)
            }
        }
    }

    /// Gives up the authorization: notAuthorized (never back to unknown).
    open func deauthorize() async {
        // A right of another simulation, or of one reset since: nothing to give up.
        guard (try? checkCurrent()) != nil else { return }
        await model.deauthorize()
        await sync()
        log("LARight.deauthorize", nil, "notAuthorized")
    }

    /// ``deauthorize()``; `handler` runs on a global queue once done.
    open func deauthorize(completion handler: @escaping () -> Void) {
        inTask { [self] in
            await deauthorize()
            handler()
        }
    }

    // MARK: Plumbing

    /// Throws `LAError.invalidContext` when the right belongs to another
    /// simulation than the current one, or to one reset since it was made;
    /// such a right touches nothing (no prompt, no log, no key, no secret).
    /// Never called under the simulation's lock (it reads the generation).
    func checkCurrent() throws {
        guard Simulation.current === simulation, simulation.epoch == epoch else {
            throw LAError(
                .invalidContext,
                userInfo: [
                    NSLocalizedDescriptionKey: "the right belongs to a simulation that was reset since, or to another simulation"
                ])
        }
    }

    /// Reads the model's state into ``state``.
    func sync() async {
        let state = await model.state
        update(State(state))
    }

    /// Sets ``state``, posting the notification of a change into or out of authorized.
    func update(_ new: State) {
        let old = mutable.withLock {
            let old = $0.state
            $0.state = new
            return old
        }
        guard old != new else { return }
        if new == .authorized { NotificationCenter.default.post(name: .simulatedRightDidBecomeAuthorized, object: self) }
        if old == .authorized { NotificationCenter.default.post(name: .simulatedRightDidBecomeUnauthorized, object: self) }
    }

    func log(_ call: String, _ code: LAModelError.Code?, _ reason: String) { logRightCall(call, code, reason) }
}

/// Logs one LARight or LARightStore call in the simulation's call log: the
/// NSError code it answers (0: success), tagged LARight.
func logRightCall(_ call: String, _ code: LAModelError.Code?, _ reason: String) {
    let status = code.map { Int32(rightNSError(LAModelError($0, reason)).code) } ?? 0
    Simulation.current.withEngine {
        $0.logCall(call, status: status, Ruling(tag: .laRight, code.map { "\($0.rawValue): \(reason)" } ?? reason))
    }
}

extension LARight.State {
    init(_ state: RightState) {
        switch state {
        case .unknown: self = .unknown
        case .authorizing: self = .authorizing
        case .authorized: self = .authorized
        case .notAuthorized: self = .notAuthorized
        }
    }
}

/// The domain of the right store's own errors (LA12: Apple's codes for a
/// duplicate identifier, a missing right, use after removal and a private
/// key used while not authorized are not public). Not an Apple name.
let rightStoreErrorDomain = "TrustSuite.LocalAuthorization"

/// The error an API call hands on for a model error: an ``LAError`` for the
/// codes LocalAuthentication names, `NSError` in ``LAErrorDomain`` with
/// -1001 for an empty reason (as `LAContext`), and an `NSError` of
/// `TrustSuite.LocalAuthorization` for the store's own (LA12).
func rightError(_ error: LAModelError) -> any Error {
    let userInfo: [String: Any] = [NSLocalizedDescriptionKey: error.description]
    if let code = laCode(error.code) { return LAError(code, userInfo: userInfo) }
    return rightNSError(error)
}

func rightNSError(_ error: LAModelError) -> NSError {
    let userInfo: [String: Any] = [NSLocalizedDescriptionKey: error.description]
    if let code = laCode(error.code) { return NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: userInfo) }
    switch error.code {
    case .invalidReason: return NSError(domain: LAErrorDomain, code: -1001, userInfo: userInfo)
    case .duplicateIdentifier: return NSError(domain: rightStoreErrorDomain, code: 1, userInfo: userInfo)
    case .notFound: return NSError(domain: rightStoreErrorDomain, code: 2, userInfo: userInfo)
    case .rightDeallocated: return NSError(domain: rightStoreErrorDomain, code: 3, userInfo: userInfo)
    case .notAuthorized: return NSError(domain: rightStoreErrorDomain, code: 4, userInfo: userInfo)
    default: return NSError(domain: rightStoreErrorDomain, code: 0, userInfo: userInfo)
    }
}

private func laCode(_ code: LAModelError.Code) -> LAError.Code? {
    switch code {
    case .authenticationFailed: .authenticationFailed
    case .userCancel: .userCancel
    case .passcodeNotSet: .passcodeNotSet
    case .biometryNotAvailable: .biometryNotAvailable
    case .biometryNotEnrolled: .biometryNotEnrolled
    case .biometryLockout: .biometryLockout
    case .notInteractive: .notInteractive
    case .invalidContext: .invalidContext
    case .duplicateIdentifier, .notFound, .rightDeallocated, .invalidReason, .notAuthorized: nil
    }
}
