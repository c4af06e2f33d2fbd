import AppAttest
import AppAttestDevice
import Foundation
import Synchronization
import KeychainAccessControl
import KeychainModel
import LocalAuthorization

/// The services the simulated phone runs beside the keychain: the
/// LocalAuthentication right store (`LARightStore`) and the App Attest and
/// DeviceCheck client (`DCAppAttestService`, `DCDevice`). One per
/// ``Simulation`` (``Simulation/services``), cleaned by every
/// ``Simulation/reset()``. Rights prompt through the keychain engine's
/// answer queue and prompt log and see its device, so a test that mixes
/// `LAContext`, SecItem and `LARight` queues answers in one place.
public final class SimulationServices: Sendable {
    struct State: Sendable {
        var store = RightStore(environment: AuthorizationEnvironment(host: EngineAuthorizationHost()))
        var attestSettings = AppAttestSettings()
        var device: ClientDevice?
        var failures: [AppAttestCall: [DeviceCheckFailure]] = [:]
        var calls: [AppAttestCallRecord] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Back to a clean store and a new App Attest device as `environment` configures them; the problems found.
    func reset(_ environment: [String: String]) -> [String] {
        var problems: [String] = []
        let settings = Simulation.Environment.readAppAttest(environment, problems: &problems)
        state.withLock { state in
            state = State()
            state.attestSettings = settings.settings
            state.failures = settings.failures
        }
        return problems
    }

    // MARK: Rights

    /// The store `LARightStore.shared` saves to (emptied by every reset).
    public var rightStore: RightStore { state.withLock { $0.store } }

    // MARK: App Attest and DeviceCheck

    /// The App Attest and DeviceCheck settings. Changing the App ID, the
    /// environment, the folder or the seed gives a new device (the keys in
    /// memory are lost, as they are for another app).
    public var appAttest: AppAttestSettings {
        get { state.withLock { $0.attestSettings } }
        set {
            state.withLock { state in
                let old = state.attestSettings
                if newValue.appId != old.appId || newValue.environment != old.environment
                    || newValue.stateFolder != old.stateFolder || newValue.seed != old.seed
                {
                    state.device = nil
                }
                state.attestSettings = newValue
            }
        }
    }

    /// The App ID the device attests for: ``AppAttestSettings/appId``, else the app's application identifier.
    public var appAttestAppID: String {
        let current = Simulation.current.app.applicationIdentifier
        return state.withLock { $0.device?.appId ?? $0.attestSettings.appId ?? current }
    }

    /// The software device behind `DCAppAttestService` and `DCDevice`, made
    /// on first use (its test roots are what a server under test trusts).
    public func appAttestDevice() throws -> ClientDevice {
        // Read before taking this lock: the simulation's lock is never taken inside it.
        let current = Simulation.current.app.applicationIdentifier
        return try state.withLock { state throws -> ClientDevice in try Self.device(&state, appIdentifier: current) }
    }

    private static func device(_ state: inout State, appIdentifier: String) throws -> ClientDevice {
        if let device = state.device { return device }
        let settings = state.attestSettings
        let appId = settings.appId ?? appIdentifier
        let made: ClientDevice
        if let folder = settings.stateFolder {
            made = try ClientDevice(folder: folder, appId: appId, environment: settings.environment, seed: settings.seed)
            // A folder made for another app or environment is refused, not used
            // silently (issue 61, item 8): its attestations would name another App ID.
            guard made.appId == appId, made.environment == settings.environment else {
                throw DeviceError(
                    "the App Attest state folder \(folder.path) holds a device for \(made.appId) (\(made.environment.rawValue)), "
                        + "not \(appId) (\(settings.environment.rawValue)): use another folder, or set "
                        + "\(Simulation.Environment.appAttestAppID) and \(Simulation.Environment.appAttestEnvironment) to the folder's")
            }
        } else {
            made = try ClientDevice(appId: appId, environment: settings.environment, seed: settings.seed)
        }
        state.device = made
        return made
    }

    /// The next call of `call` fails with `failure` (once; several queue in order).
    public func failNext(_ call: AppAttestCall, with failure: DeviceCheckFailure) {
        state.withLock { $0.failures[call, default: []].append(failure) }
    }

    /// One-shot failures not used yet.
    public var pendingFailures: [AppAttestCall: [DeviceCheckFailure]] { state.withLock { $0.failures.filter { !$0.value.isEmpty } } }

    /// The app was deleted and installed again: its App Attest keys are gone
    /// (a stored key id answers `invalidKey`); the device and its roots stay.
    /// In a state folder the keys are removed under the lock that
    /// assertions hold, so one running in another process never writes a key
    /// back; a folder that cannot be opened or locked is logged as the
    /// reinstall's `unknownSystemFailure`.
    public func reinstallApp() {
        let known = state.withLock { $0.device }
        do {
            try (known ?? appAttestDevice()).reinstall()
            record(AppAttestCallRecord(call: "app.reinstall", code: nil, reason: "every App Attest key of the app is gone"))
        } catch {
            record(AppAttestCallRecord(call: "app.reinstall", code: .unknownSystemFailure, reason: "\(error)"))
        }
    }

    /// Every App Attest and DeviceCheck call, in order, with how it ended.
    public var appAttestCalls: [AppAttestCallRecord] { state.withLock { $0.calls } }

    /// Takes the one-shot failure queued for `call`, if any (the `DeviceCheck` module asks first).
    public func takeFailure(_ call: AppAttestCall) -> DeviceCheckFailure? {
        state.withLock { state -> DeviceCheckFailure? in
            guard var queued = state.failures[call], !queued.isEmpty else { return nil }
            let failure = queued.removeFirst()
            state.failures[call] = queued
            return failure
        }
    }

    /// Logs one App Attest or DeviceCheck call (also in the simulation's call log).
    public func record(_ record: AppAttestCallRecord) {
        state.withLock { $0.calls.append(record) }
        Simulation.current.withEngine {
            // The status is the DCError code (0 for success and for unknownSystemFailure: the reason names which).
            $0.logCall(
                record.call, status: Int32(record.code?.rawValue ?? 0),
                Ruling(tag: .deviceCheck, "\(record.code?.name ?? "ok"): \(record.reason)"))
        }
    }
}

/// The App Attest and DeviceCheck calls a one-shot failure can target.
public enum AppAttestCall: String, Sendable, Hashable, CaseIterable, Codable {
    case generateKey, attestKey, generateAssertion, generateToken
}

/// `DCError.Code`'s cases, with Apple's raw values (DeviceCheck's `DCError.h`).
public enum DeviceCheckFailure: Int, Sendable, Hashable, CaseIterable, Codable {
    case unknownSystemFailure = 0
    case featureUnsupported = 1
    case invalidInput = 2
    case invalidKey = 3
    case serverUnavailable = 4

    /// The name settings and vectors use (`serverUnavailable`).
    public var name: String {
        switch self {
        case .unknownSystemFailure: "unknownSystemFailure"
        case .featureUnsupported: "featureUnsupported"
        case .invalidInput: "invalidInput"
        case .invalidKey: "invalidKey"
        case .serverUnavailable: "serverUnavailable"
        }
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}

/// One App Attest or DeviceCheck call: its name, the `DCError` code it ended with (nil: success) and why.
public struct AppAttestCallRecord: Sendable, Hashable {
    public var call: String
    public var code: DeviceCheckFailure?
    public var reason: String

    public init(call: String, code: DeviceCheckFailure?, reason: String) {
        self.call = call
        self.code = code
        self.reason = reason
    }

    public var explanation: String { "\(call) → \(code?.name ?? "ok"): \(reason)" }
}

/// The App Attest and DeviceCheck settings of the simulated phone.
public struct AppAttestSettings: Sendable, Hashable {
    /// The App ID the device attests for; nil (the default): the app's application identifier.
    public var appId: String?
    /// The App Attest environment (the app's `appattest-environment` entitlement). Default `development`.
    public var environment: AppAttestEnvironment = .development
    /// A `device` state folder (``ClientDevice``, `trustsuite device`); nil (the default): memory.
    public var stateFolder: URL?
    /// The seed of the device's test CA (the same roots on every run); nil: random.
    public var seed: UInt64?
    /// `DCAppAttestService.isSupported`; false as in an app extension or the Simulator. Default true.
    public var isSupported = true
    /// `DCDevice.isSupported`. Default true.
    public var deviceCheckSupported = true

    public init() {}
}

/// The authorization host of the rights: the keychain engine's device, answer queue and prompt log.
struct EngineAuthorizationHost: AuthorizationHost {
    func device() -> DeviceState { Simulation.current.withEngine { $0.device } }

    func apply(_ event: DeviceEvent) { Simulation.current.apply(event) }

    func prompt(_ requirement: RightRequirement, reason: String, call: String) -> UserAnswer? {
        let answer = Simulation.current.withEngine { engine -> PromptAnswer? in
            let biometric = engine.device.biometryUsable && engine.biometryKind != .none
            let kind: String
            switch requirement {
            case .biometry, .biometryCurrentSet: kind = engine.biometryKind.name
            case .default, .biometryFallbackDefault, .biometryFallbackDevicePasscode:
                kind = biometric ? engine.biometryKind.name : "passcode"
            }
            return engine.raisePrompt(kind: kind, reason: reason, operation: "authorizeRight", call: call)
        }
        return answer.map(Self.userAnswer)
    }

    /// The model's answer for the user's: a match, a passcode, a failed
    /// match; cancel, fallback and a system cancel end the prompt unanswered
    /// (a right has no fallback button of its own: the system shows the
    /// passcode where the requirement allows it).
    static func userAnswer(_ answer: PromptAnswer) -> UserAnswer {
        switch answer {
        case .biometryMatch: .biometry
        case .passcode: .passcode
        case .biometryNoMatch, .companion: .fail
        case .cancel, .fallback, .systemCancel: .cancel
        }
    }
}
