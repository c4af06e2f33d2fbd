import Foundation
import Synchronization
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
///
/// Calls reach ``current``: ``shared`` unless a task runs inside
/// ``withNew(_:)``, which gives it (and its child tasks) a simulation of its
/// own, so tests run in parallel. All state lives in one `Mutex`.
public final class Simulation: Sendable {
    /// The simulation every `Security` and `LocalAuthentication` call uses outside ``withNew(_:)``.
    public static let shared = Simulation(environment: ProcessInfo.processInfo.environment)

    /// The simulation the calls of this task reach: ``shared`` by default,
    /// the task's own inside ``withNew(_:)`` (child tasks inherit it; a
    /// thread the code under test starts itself falls back to ``shared``).
    @TaskLocal public static var current: Simulation = .shared

    /// Runs `body` with a simulation of its own — keychain, device, app,
    /// user, clock and logs — configured from the environment like
    /// ``shared``; it runs in parallel with any other.
    public static func withNew<T>(
        environment: [String: String] = ProcessInfo.processInfo.environment, _ body: () async throws -> T
    ) async rethrows -> T {
        try await $current.withValue(Simulation(environment: environment), operation: body)
    }

    /// The synchronous form of ``withNew(environment:_:)``.
    public static func withNew<T>(environment: [String: String] = ProcessInfo.processInfo.environment, _ body: () throws -> T) rethrows -> T
    {
        try $current.withValue(Simulation(environment: environment), operation: body)
    }

    struct State: Sendable {
        var engine = KeychainEngine()
        var deviceSettings = SimulatedDevice()
        var configurationProblems: [String] = []
        /// Bumped by every reset: a handle made before it is stale (issue 52, item 2).
        var epoch: UInt64 = 0
        /// The most calls the log keeps (the oldest go first).
        var callLogLimit = Simulation.defaultCallLogLimit
    }

    /// A handle released while the state was in use waits here (a `SecKey`
    /// or `LAContext` dropped inside ``withEngine(_:)`` must not wait for the lock it is under).
    enum Release: Sendable {
        case key(Int, epoch: UInt64)
        case context(Int, epoch: UInt64)
    }

    private let state: Mutex<State>
    private let releases = Mutex<[Release]>([])
    private let environment: [String: String]

    /// How many calls the log keeps by default (``callLogLimit``).
    public static let defaultCallLogLimit = 10_000

    /// Problems in the environment's settings (each ignored, the default kept).
    public var configurationProblems: [String] { state.withLock { $0.configurationProblems } }
    /// The services beside the keychain (LARight's store, App Attest and DeviceCheck), reset with it.
    public let services = SimulationServices()

    init(environment: [String: String]) {
        self.environment = environment
        state = Mutex(State())
        let serviceProblems = services.reset(environment)
        state.withLock { Self.resetLocked(&$0, environment: environment, serviceProblems: serviceProblems) }
    }

    /// Runs `body` on the model, alone: calls from any thread are
    /// serialized, each one whole. Handles released meanwhile are released
    /// at the next call.
    public func withEngine<T: Sendable>(_ body: (inout KeychainEngine) throws -> T) rethrows -> T {
        try locked { state in try body(&state.engine) }
    }

    /// The state under the lock: pending releases first, then `body`, then the echo and the log's bound.
    private func locked<T: Sendable>(_ body: (inout State) throws -> T) rethrows -> T {
        let pending = releases.withLock { list -> [Release] in
            defer { list.removeAll() }
            return list
        }
        let echo = environment[Environment.echo] == "1"
        return try state.withLock { state -> T in
            for release in pending {
                switch release {
                case .key(let id, let epoch) where epoch == state.epoch: state.engine.releaseKey(id)
                case .context(let id, let epoch) where epoch == state.epoch: state.engine.releaseContext(id)
                default: break
                }
            }
            let before = state.engine.calls.count
            let result = try body(&state)
            if echo, state.engine.calls.count > before {
                for call in state.engine.calls[before...] {
                    FileHandle.standardError.write(Data("[simulation] \(call.line)\n".utf8))
                }
            }
            state.engine.trimLogs(keeping: state.callLogLimit)
            return result
        }
    }

    // MARK: Handles

    /// The reset generation a new handle is stamped with.
    public var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Runs `body` only for a handle of this generation; nil for a stale one
    /// (made before a reset), which touches nothing.
    public func withEngine<T: Sendable>(ifCurrent epoch: UInt64, _ body: (inout KeychainEngine) throws -> T) rethrows -> T? {
        try locked { state -> T? in
            guard state.epoch == epoch else { return nil }
            return try body(&state.engine)
        }
    }

    /// Runs `body` and hands back the generation it ran in, for the handle it makes.
    public func withEngineStamped<T: Sendable>(_ body: (inout KeychainEngine) throws -> T) rethrows -> (value: T, epoch: UInt64) {
        try locked { state in (try body(&state.engine), state.epoch) }
    }

    /// A `SecKey` handle is gone: its key is released at the next call (never under the caller's lock).
    public func releaseLater(key id: Int, epoch: UInt64) { releases.withLock { $0.append(.key(id, epoch: epoch)) } }

    /// An `LAContext` handle is gone: its context is released at the next call.
    public func releaseLater(context id: Int, epoch: UInt64) { releases.withLock { $0.append(.context(id, epoch: epoch)) } }

    /// How many calls ``calls`` keeps (default ``defaultCallLogLimit``; the oldest are dropped first).
    public var callLogLimit: Int {
        get { state.withLock { $0.callLogLimit } }
        set { state.withLock { $0.callLogLimit = max(1, newValue) } }
    }

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

    /// A clean keychain, device, app, user and log, as the environment
    /// configures them (else the defaults). Every handle made before is stale.
    public func reset() {
        let serviceProblems = services.reset(environment)
        state.withLock { Self.resetLocked(&$0, environment: environment, serviceProblems: serviceProblems) }
    }

    private static func resetLocked(_ state: inout State, environment: [String: String], serviceProblems: [String]) {
        var problems: [String] = []
        let settings = Environment.read(environment, problems: &problems)
        state.configurationProblems = problems + serviceProblems
        state.engine = KeychainEngine(app: settings.app, now: settings.clock)
        state.engine.answers = settings.answers
        state.engine.defaultAnswer = settings.defaultAnswer
        state.engine.contextLifetime = settings.contextLifetime
        state.deviceSettings = settings.device
        state.epoch &+= 1
        if let limit = settings.callLogLimit { state.callLogLimit = limit }
        applyDeviceSettings(&state)
    }

    private static func applyDeviceSettings(_ state: inout State) {
        let deviceSettings = state.deviceSettings
        state.engine.biometryKind = deviceSettings.biometry
        var device = DeviceState(
            locked: deviceSettings.locked, unlockedSinceBoot: deviceSettings.unlockedSinceBoot || !deviceSettings.locked,
            passcodeSet: deviceSettings.passcodeSet,
            biometry: deviceSettings.biometryState, companion: deviceSettings.hasAuthenticationCompanion)
        device.unlockOnlyCompanion = deviceSettings.companions.contains { $0.paired && $0.nearby && !$0.canAuthenticate }
        device.enrollmentGeneration = state.engine.device.enrollmentGeneration
        device.passcodeGeneration = state.engine.device.passcodeGeneration
        device.hardwareGeneration = state.engine.device.hardwareGeneration
        state.engine.setDevice(device)
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
        get { state.withLock { $0.deviceSettings } }
        set {
            state.withLock { state in
                state.deviceSettings = newValue
                Self.applyDeviceSettings(&state)
            }
        }
    }

    /// Something happens to the device: lock, unlock, reboot, a new enrolment, the passcode removed…
    public func apply(_ event: DeviceEvent) {
        state.withLock { state in
            state.engine.apply(event)
            let device = state.engine.device
            state.deviceSettings.locked = device.locked
            state.deviceSettings.unlockedSinceBoot = device.unlockedSinceBoot
            state.deviceSettings.passcodeSet = device.passcodeSet
            state.deviceSettings.enrolled = device.biometry == .enrolled || device.biometry == .lockout
            state.deviceSettings.lockedOut = device.biometry == .lockout
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
    public var calls: [CallRecord] { locked { Array($0.engine.calls.suffix($0.callLogLimit)) } }

    /// The last call's explanation, e.g. "SecItemCopyMatching → -25300: Q4: the query's …".
    public var lastExplanation: String? { withEngine { $0.calls.last?.line } }

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
