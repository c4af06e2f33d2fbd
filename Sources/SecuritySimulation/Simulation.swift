import Foundation
// The vocabulary of the control (answers, events, records) comes with it.
@_exported import KeychainAccessControl
@_exported import KeychainModel

/// The simulation control: the one keychain, device, app, user and clock
/// that `import Security` and `import LocalAuthentication` reach on Linux
/// (docs/apple-api.md). Code under test never imports this module; its tests
/// do: configure, run the code, then assert statuses, prompt counts and the
/// call log's explanations. Every setting also has an environment variable
/// (``Simulation/Environment``), read at start and by ``reset()``, so an
/// unchanged test suite can be pointed at a configuration.
public final class Simulation: @unchecked Sendable {
    /// The simulation every `Security` and `LocalAuthentication` call uses.
    public static let shared = Simulation(environment: ProcessInfo.processInfo.environment)

    private let lock = NSLock()
    private var engine: KeychainEngine
    private var deviceSettings: SimulatedDevice
    private let environment: [String: String]
    /// Problems in the environment's settings (each ignored, the default kept).
    public private(set) var configurationProblems: [String] = []
    /// The services beside the keychain (LARight's store, App Attest and DeviceCheck), reset with it.
    public let services = SimulationServices()

    init(environment: [String: String]) {
        self.environment = environment
        engine = KeychainEngine()
        deviceSettings = SimulatedDevice()
        resetLocked()
    }

    /// Runs `body` on the model under the simulation's lock: calls from any
    /// thread are serialized, each one whole.
    public func withEngine<T>(_ body: (inout KeychainEngine) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        let before = engine.calls.count
        let result = try body(&engine)
        if echo, engine.calls.count > before {
            for call in engine.calls[before...] { FileHandle.standardError.write(Data("[simulation] \(call.explanation)\n".utf8)) }
        }
        return result
    }

    private var echo: Bool { environment[Environment.echo] == "1" }

    // MARK: Sessions

    private let gate = SessionGate()

    /// Runs `body` alone on the simulation, from a reset: every test (and
    /// every vector replay) that uses the one shared simulation goes through
    /// here, so parallel tests never see each other's keychain, answers or
    /// prompts. Waits, without blocking a thread, while another session runs.
    public func session<T>(_ body: () async throws -> T) async rethrows -> T {
        await gate.acquire()
        reset()
        do {
            let result = try await body()
            await gate.release()
            return result
        } catch {
            await gate.release()
            throw error
        }
    }

    // MARK: Reset

    /// A clean keychain, device, app, user and log, as the environment configures them (else the defaults).
    public func reset() {
        lock.lock()
        defer { lock.unlock() }
        resetLocked()
    }

    private func resetLocked() {
        var problems: [String] = []
        let settings = Environment.read(environment, problems: &problems)
        configurationProblems = problems + services.reset(environment)
        engine = KeychainEngine(app: settings.app, now: settings.clock)
        engine.answers = settings.answers
        engine.defaultAnswer = settings.defaultAnswer
        engine.contextLifetime = settings.contextLifetime
        deviceSettings = settings.device
        applyDeviceSettings()
    }

    private func applyDeviceSettings() {
        engine.biometryKind = deviceSettings.biometry
        var state = DeviceState(
            locked: deviceSettings.locked, unlockedSinceBoot: deviceSettings.unlockedSinceBoot || !deviceSettings.locked,
            passcodeSet: deviceSettings.passcodeSet,
            biometry: deviceSettings.biometryState, companion: deviceSettings.hasAuthenticationCompanion)
        state.enrollmentGeneration = engine.device.enrollmentGeneration
        state.passcodeGeneration = engine.device.passcodeGeneration
        state.hardwareGeneration = engine.device.hardwareGeneration
        engine.setDevice(state)
    }

    // MARK: The app

    /// The app: application identifier (team ID + bundle ID) and its groups in entitlement order.
    public var app: AppIdentity {
        get { withEngine { $0.app } }
        set { withEngine { $0.app = newValue } }
    }

    // MARK: The device

    /// The device as configured (biometry, passcode, lock, companions).
    public var device: SimulatedDevice {
        get {
            lock.lock()
            defer { lock.unlock() }
            return deviceSettings
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            deviceSettings = newValue
            applyDeviceSettings()
        }
    }

    /// Something happens to the device: lock, unlock, reboot, a new enrolment, the passcode removed…
    public func apply(_ event: DeviceEvent) {
        withEngine { engine in
            engine.apply(event)
            deviceSettings.locked = engine.device.locked
            deviceSettings.unlockedSinceBoot = engine.device.unlockedSinceBoot
            deviceSettings.passcodeSet = engine.device.passcodeSet
            deviceSettings.enrolled = engine.device.biometry == .enrolled || engine.device.biometry == .lockout
            deviceSettings.lockedOut = engine.device.biometry == .lockout
        }
    }

    // MARK: The user

    /// Queues how the user answers the next prompts, in order.
    public func enqueue(_ answers: PromptAnswer...) { withEngine { $0.answers += answers } }

    /// Answers no prompt has used yet.
    public var pendingAnswers: [PromptAnswer] { withEngine { $0.answers } }

    /// The answer when the queue is empty; nil (the default) is strict: the
    /// prompt fails as a cancel and ``unansweredPrompts`` names the call.
    public var defaultAnswer: PromptAnswer? {
        get { withEngine { $0.defaultAnswer } }
        set { withEngine { $0.defaultAnswer = newValue } }
    }

    // MARK: The clock

    /// The simulated time (creation and modification dates, reuse durations, context lifetimes).
    public var now: Date {
        get { withEngine { Date(timeIntervalSinceReferenceDate: $0.now) } }
        set { withEngine { $0.now = newValue.timeIntervalSinceReferenceDate } }
    }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { withEngine { $0.now += max(0, seconds) } }

    /// How long an evaluated `LAContext` stays satisfied; nil (the default): until invalidated.
    public var contextLifetime: TimeInterval? {
        get { withEngine { $0.contextLifetime } }
        set { withEngine { $0.contextLifetime = newValue } }
    }

    // MARK: The logs

    /// Every prompt raised: kind, reason, operation, the call that raised it and the answer.
    public var prompts: [PromptRecord] { withEngine { $0.prompts } }

    /// The number of prompts raised (what "this flow asked for Face ID once" counts).
    public var promptCount: Int { withEngine { $0.prompts.count } }

    /// Prompts that found no queued answer (the strict default refused them).
    public var unansweredPrompts: [PromptRecord] { withEngine { $0.prompts.filter { $0.answer == nil } } }

    /// Every call with its status, the rule that decided it and one line of reason.
    public var calls: [CallRecord] { withEngine { $0.calls } }

    /// The last call's explanation, e.g. "SecItemCopyMatching → -25300: Q4: the query's …".
    public var lastExplanation: String? { withEngine { $0.calls.last?.explanation } }

    /// Calls that would have ended the app on a device (LA9).
    public var wouldCrashOnDevice: [String] { withEngine { $0.wouldCrashOnDevice } }

    /// Clears the logs, keeping the keychain and the device.
    public func clearLogs() { withEngine { $0.clearLogs() } }

    /// The number of items in the keychain.
    public var itemCount: Int { withEngine { $0.itemCount } }
}

/// The simulated device's settings.
public struct SimulatedDevice: Sendable, Hashable {
    /// A paired device that may authenticate for this one (LA3).
    public struct Companion: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, CaseIterable { case watch, mac, vision }
        public var kind: Kind
        public var paired: Bool
        public var nearby: Bool
        /// False for a Watch set up only to unlock the phone: it is not an authentication companion.
        public var canAuthenticate: Bool

        /// A companion by the name settings and vectors use: `watch`, `mac`,
        /// `vision`, or `watch-unlock-only` (paired and near, but not an
        /// authentication companion); nil for another name.
        public init?(name: String) {
            if name == "watch-unlock-only" {
                self.init(kind: .watch, canAuthenticate: false)
            } else if let kind = Kind(rawValue: name) {
                self.init(kind: kind)
            } else {
                return nil
            }
        }

        public init(kind: Kind, paired: Bool = true, nearby: Bool = true, canAuthenticate: Bool = true) {
            self.kind = kind
            self.paired = paired
            self.nearby = nearby
            self.canAuthenticate = canAuthenticate
        }
    }

    public var passcodeSet = true
    public var biometry: BiometryKind = .faceID
    public var enrolled = true
    public var lockedOut = false
    public var locked = false
    public var unlockedSinceBoot = true
    public var companions: [Companion] = []

    /// The default: unlocked since boot, passcode set, Face ID enrolled, no companion.
    public init() {}

    var biometryState: DeviceState.Biometry {
        if biometry == .none { return .none }
        if !enrolled || !passcodeSet { return .notEnrolled }
        return lockedOut ? .lockout : .enrolled
    }

    var hasAuthenticationCompanion: Bool { companions.contains { $0.paired && $0.nearby && $0.canAuthenticate } }
}

/// A first-come, first-served lock for async code: waiting suspends the task.
actor SessionGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
