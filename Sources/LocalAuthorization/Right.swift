import KeychainAccessControl

/// LARight states (docs/traces.md).
public enum RightState: String, Sendable, Hashable, CaseIterable, Codable {
    case unknown, authorizing, authorized, notAuthorized
}

/// The central notifications of rights: one per actual change into or out of `authorized`.
public enum RightNotification: String, Sendable, Hashable, CaseIterable, Codable {
    case didBecomeAuthorized, didBecomeUnauthorized
}

/// Another control that owns the device and answers prompts (the Apple API
/// layer's simulation, so `LARight` and `LAContext` share one answer queue,
/// one prompt log and one device).
public protocol AuthorizationHost: Sendable {
    /// The device now.
    func device() -> DeviceState
    /// Something happens to the device.
    func apply(_ event: DeviceEvent)
    /// Raises one prompt for `requirement` and gives the user's answer, nil
    /// when the user gave none (the prompt fails as a cancel).
    func prompt(_ requirement: RightRequirement, reason: String, call: String) -> UserAnswer?
}

/// The shared world of the model: the device, the simulated user's queued
/// answers, and the notification center. An actor: rights on different
/// tasks share it.
public actor AuthorizationEnvironment {
    private var ownDevice: DeviceState
    /// Where the device and the prompts live when another control owns them
    /// (the Apple API layer's simulation); nil: this environment's own.
    public nonisolated let host: (any AuthorizationHost)?
    /// The device: the host's when there is one, else this environment's own.
    public var device: DeviceState { host?.device() ?? ownDevice }
    private var answers: [UserAnswer] = []
    private let authenticator = SimulatedAuthenticator()
    public private(set) var notifications: [RightNotification] = []
    private var observers: [Int: AsyncStream<RightNotification>.Continuation] = [:]
    private var nextObserver = 0
    /// Prompts shown so far.
    public private(set) var prompts = 0

    public init(device: DeviceState = DeviceState()) {
        ownDevice = device
        host = nil
    }

    /// An environment whose device and prompts are `host`'s.
    public init(host: any AuthorizationHost) {
        ownDevice = DeviceState()
        self.host = host
    }

    public func apply(_ event: DeviceEvent) {
        if let host { host.apply(event) } else { ownDevice.apply(event) }
    }

    /// Queues what the user will do at the next prompt.
    public func enqueue(_ answer: UserAnswer) { answers.append(answer) }

    /// Forgets answers no prompt used (a call that failed before prompting).
    public func clearAnswers() { answers = [] }

    /// One prompt for `requirement`; no queued answer is a cancel. With a
    /// host, the host answers (and logs) the prompt.
    func prompt(_ requirement: RightRequirement, reason: String, boundEnrollment: Int) -> LAModelError.Code? {
        prompts += 1
        let answer: UserAnswer
        if let host {
            answer = host.prompt(requirement, reason: reason, call: "LARight.authorize") ?? .cancel
        } else {
            answer = answers.isEmpty ? .cancel : answers.removeFirst()
        }
        return authenticator.authenticate(requirement, answer: answer, device: device, boundEnrollment: boundEnrollment)
    }

    func post(_ notification: RightNotification) {
        notifications.append(notification)
        for continuation in observers.values { continuation.yield(notification) }
    }

    /// Central notifications as they are posted.
    public func notificationStream() -> AsyncStream<RightNotification> {
        let (stream, continuation) = AsyncStream<RightNotification>.makeStream()
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        return stream
    }

    public func count(_ notification: RightNotification) -> Int { notifications.filter { $0 == notification }.count }
}

/// An LARight: a requirement and a state machine driven by `authorize`,
/// `deauthorize` and release; every state change is observable.
public actor Right {
    public nonisolated let requirement: RightRequirement
    public nonisolated let environment: AuthorizationEnvironment
    public private(set) var state: RightState = .unknown
    /// The right was released (its context invalidated): it can no longer act.
    public private(set) var isReleased = false
    /// The biometry set a biometryCurrentSet right is bound to.
    let boundEnrollment: Int
    private var observers: [Int: AsyncStream<RightState>.Continuation] = [:]
    private var nextObserver = 0

    public init(requirement: RightRequirement = .default, environment: AuthorizationEnvironment) async {
        self.requirement = requirement
        self.environment = environment
        self.boundEnrollment = await environment.device.enrollmentGeneration
    }

    /// A right bound to the biometry set `boundEnrollment` (the device's
    /// ``DeviceState/enrollmentGeneration`` when it was made), for callers
    /// that cannot wait for the environment.
    public init(requirement: RightRequirement, environment: AuthorizationEnvironment, boundEnrollment: Int) {
        self.requirement = requirement
        self.environment = environment
        self.boundEnrollment = boundEnrollment
    }

    /// The states of this right: the current one, then every change.
    public func states() -> AsyncStream<RightState> {
        let (stream, continuation) = AsyncStream<RightState>.makeStream()
        continuation.yield(state)
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        return stream
    }

    func transition(to new: RightState) async {
        guard new != state else { return }
        let old = state
        state = new
        for continuation in observers.values { continuation.yield(new) }
        if new == .authorized { await environment.post(.didBecomeAuthorized) }
        if old == .authorized { await environment.post(.didBecomeUnauthorized) }
    }

    /// `authorize(localizedReason:)`: an empty reason throws `invalidReason`
    /// and changes nothing; otherwise authorizing, one prompt, then
    /// authorized or notAuthorized (with the error thrown).
    public func authorize(localizedReason reason: String) async throws(LAModelError) {
        guard !isReleased else { throw LAModelError(.rightDeallocated, "the right was released") }
        guard !reason.allSatisfy(\.isWhitespace) else { throw LAModelError(.invalidReason, "the localized reason is empty") }
        await transition(to: .authorizing)
        let device = await environment.device
        if let obstacle = requirement.obstacle(on: device) {
            await transition(to: .notAuthorized)
            throw LAModelError(obstacle, "\(requirement.rawValue) cannot be evaluated on this device")
        }
        if let failure = await environment.prompt(requirement, reason: reason, boundEnrollment: boundEnrollment) {
            await transition(to: .notAuthorized)
            throw LAModelError(failure, "authorization failed")
        }
        await transition(to: .authorized)
    }

    /// `checkCanAuthorize()`: never changes state.
    public func checkCanAuthorize() async throws(LAModelError) {
        guard !isReleased else { throw LAModelError(.rightDeallocated, "the right was released") }
        if let obstacle = requirement.obstacle(on: await environment.device) {
            throw LAModelError(obstacle, "\(requirement.rawValue) cannot be evaluated on this device")
        }
    }

    /// `deauthorize()`: to notAuthorized, never back to unknown; no error path.
    public func deauthorize() async {
        await transition(to: .notAuthorized)
    }

    /// The right is released: an authorized right becomes notAuthorized, and
    /// it can no longer act.
    public func release() async {
        if state == .authorized { await transition(to: .notAuthorized) }
        isReleased = true
        for continuation in observers.values { continuation.finish() }
        observers = [:]
    }
}
