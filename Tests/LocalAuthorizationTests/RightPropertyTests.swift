import KeychainAccessControl
import LocalAuthorization
import PropertyBased
import TestSupport
import Testing

/// Model-based properties of the right lifecycle: random sequences of
/// operations and device events, checked against a small oracle written
/// here (the table of allowed transitions).
@Suite struct RightPropertyTests {
    /// The oracle: which state changes spec/local-authorization.md allows.
    static let allowed: Set<[RightState]> = [
        [.unknown, .authorizing], [.notAuthorized, .authorizing], [.authorized, .authorizing],
        [.authorizing, .authorized], [.authorizing, .notAuthorized],
        [.unknown, .notAuthorized], [.authorizing, .notAuthorized], [.authorized, .notAuthorized],
    ]

    /// Collects a stream's elements on a task of its own.
    actor Collector<Element: Sendable> {
        var items: [Element] = []
        func add(_ item: Element) { items.append(item) }
    }

    struct Step: Sendable, CustomStringConvertible {
        let kind: Int, answer: Int, extra: Int
        var description: String { "(\(kind) \(answer) \(extra))" }
    }

    static let step = zip(Gen.int(in: 0...7), Gen.int(in: 0...3), Gen.int(in: 0...6)).map { Step(kind: $0.0, answer: $0.1, extra: $0.2) }
    static let requirement = Gen.int(in: 0...(RightRequirement.allCases.count - 1)).map { RightRequirement.allCases[$0] }
    static let events: [DeviceEvent] = [
        .biometryEnrollmentChanged, .biometryLockout, .unlock, .passcodeRemoved, .passcodeSet, .lock, .reboot,
    ]

    /// Bounded: a deadlock in the model fails the test instead of hanging the
    /// suite. Its thousand runs of actor hops go to a thread of their own
    /// (``DedicatedThreadExecutor``), so tests that block the cooperative
    /// pool's threads beside it cannot starve it into the limit.
    @Test(.timeLimit(.minutes(10))) func lifecycleFollowsTheTransitionTable() async {
        await withTaskExecutorPreference(DedicatedThreadExecutor.shared) { await Self.lifecycleProperty() }
    }

    static func lifecycleProperty() async {
        let pace = Pace()
        await propertyCheck(count: 1000, input: Self.requirement, Self.step.array(of: 1...20)) { requirement, steps in
            await pace.step()
            let environment = AuthorizationEnvironment()
            let store = RightStore(environment: environment)
            let base = await Right(requirement: requirement, environment: environment)
            guard let persisted = try? await store.saveRight(base, identifier: "r", secret: [7]) else {
                Issue.record("save failed")
                return
            }
            let right = persisted.right
            let states = Collector<RightState>()
            let notifications = Collector<RightNotification>()
            let stateStream = await right.states()
            let notificationStream = await environment.notificationStream()
            let executor = DedicatedThreadExecutor.shared
            let watchStates = Task(executorPreference: executor) { for await s in stateStream { await states.add(s) } }
            let watchNotifications = Task(executorPreference: executor) { for await n in notificationStream { await notifications.add(n) } }

            for step in steps {
                switch step.kind {
                case 0, 1:
                    await environment.enqueue(UserAnswer.allCases[step.answer])
                    try? await right.authorize(localizedReason: step.extra == 0 ? " " : "Unlock")
                    await environment.clearAnswers()
                case 2:
                    await right.deauthorize()
                case 3:
                    let before = await right.state
                    try? await right.checkCanAuthorize()
                    #expect(await right.state == before, "checkCanAuthorize changed the state")
                case 4:
                    await environment.apply(Self.events[step.extra])
                case 5:
                    let authorized = await right.state == .authorized
                    let signed = (try? await persisted.sign([1, 2, 3])) != nil
                    #expect(signed == authorized, "sign succeeded: \(signed), authorized: \(authorized)")
                case 6:
                    let authorized = await right.state == .authorized
                    let secret = try? await persisted.loadSecret()
                    #expect((secret != nil) == authorized)
                default:
                    let authorized = await right.state == .authorized
                    let cipher = persisted.encrypt([9, 9])
                    #expect(cipher != nil, "public-key operations always work")
                    let plain = try? await persisted.decrypt(cipher ?? [])
                    #expect((plain == [9, 9]) == authorized)
                }
            }
            await right.release()
            _ = await watchStates.value
            // Let the notification task drain what was posted, then stop it.
            let expected = await environment.notifications.count
            while await notifications.items.count < expected { await Task.yield() }
            watchNotifications.cancel()

            let observed = await states.items
            #expect(observed.first == .unknown)
            for pair in zip(observed, observed.dropFirst()) {
                #expect(Self.allowed.contains([pair.0, pair.1]), "illegal transition \(pair.0) → \(pair.1)")
            }
            let into = zip(observed, observed.dropFirst()).filter { $0.1 == .authorized }.count
            let outOf = zip(observed, observed.dropFirst()).filter { $0.0 == .authorized }.count
            let posted = await notifications.items
            #expect(posted.filter { $0 == .didBecomeAuthorized }.count == into)
            #expect(posted.filter { $0 == .didBecomeUnauthorized }.count == outOf)
        }
    }

    @Test func biometryCurrentSetIsInvalidatedForGood() async throws {
        let environment = AuthorizationEnvironment()
        let store = RightStore(environment: environment)
        let saved = try await store.saveRight(await Right(requirement: .biometryCurrentSet, environment: environment), identifier: "c")
        await environment.enqueue(.biometry)
        try await saved.right.authorize(localizedReason: "Sign")
        await environment.apply(.biometryEnrollmentChanged)
        for _ in 0..<3 {
            await environment.enqueue(.biometry)
            await #expect(throws: LAModelError(.authenticationFailed, "")) { try await saved.right.authorize(localizedReason: "Sign") }
        }
        let reloaded = try await store.right(forIdentifier: "c")
        await environment.enqueue(.biometry)
        await #expect(throws: LAModelError(.authenticationFailed, "")) { try await reloaded.right.authorize(localizedReason: "Sign") }
    }
}
