import KeychainAccessControl
import KeychainModel
import PropertyBased
import Testing

/// Model-based properties of keychain flows over random call sequences:
/// a context that proved what an item needs never prompts again for it, no
/// sequence reads a protected secret without a satisfying proof, no trap.
@Suite struct FlowPropertyTests {
    static let password = ItemAttributes(itemClass: .genericPassword, service: "svc", account: "a")
    static let key = ItemAttributes(itemClass: .key, applicationTag: "tag", tokenID: "secureEnclave")
    static let flagChoices: [AccessControlFlags] = [
        [], .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, [.biometryCurrentSet, .or, .devicePasscode],
        [.biometryAny, .applicationPassword],
    ]
    static let events: [DeviceEvent] = [.lock, .unlock, .biometryEnrollmentChanged, .biometryLockout, .reboot, .passcodeRemoved, .passcodeSet]
    static let answers: [UserAnswer?] = [.biometry, .passcode, .fail, .cancel, nil]

    /// One call, decoded from four numbers.
    struct Call: Sendable, CustomStringConvertible {
        let kind: Int, context: Int, answer: Int, extra: Int
        var description: String { "(\(kind) \(context) \(answer) \(extra))" }
        var contextLabel: String? { ["c1", "c2", nil][context % 3] }
        var user: UserAnswer? { FlowPropertyTests.answers[answer % FlowPropertyTests.answers.count] }
    }

    static let call = zip(Gen.int(in: 0...9), Gen.int(in: 0...2), Gen.int(in: 0...4), Gen.int(in: 0...6))
        .map { Call(kind: $0.0, context: $0.1, answer: $0.2, extra: $0.3) }
    static let sequence = call.array(of: 1...24)
    static let setup = zip(Gen.int(in: 0...(flagChoices.count - 1)), Gen.int(in: 0...(flagChoices.count - 1)))

    var readQuery: ItemQuery {
        var q = ItemQuery(attributes: Self.password)
        q.returnData = true
        return q
    }

    /// Runs a sequence and checks the properties at every read and signature.
    func run(_ calls: [Call], passwordFlags: AccessControlFlags, keyFlags: AccessControlFlags) {
        var keychain = KeychainSimulator()
        _ = keychain.add(Self.password, protection: .ak, flags: passwordFlags, data: [1, 2, 3])
        _ = keychain.generateKey(Self.key, protection: .aku, flags: keyFlags.union(.privateKeyUsage))
        for call in calls {
            let label = call.contextLabel
            let contextEvidence = label.flatMap { keychain.contexts[$0] }.map { $0.invalidated ? nil : $0.evidence } ?? nil
            switch call.kind {
            case 0, 1, 2:
                let access = keychain.accessControl(matching: readQuery)
                let before = access?.evaluate(.useItem, device: keychain.device, evidence: contextEvidence ?? [])
                let outcome = keychain.copyMatching(readQuery, context: label, user: call.user)
                if before == .allowed { #expect(outcome.prompts == 0, "context proved enough, yet \(outcome.prompts) prompt(s)") }
                if outcome.data != nil, let access, case .requires = access.rule(for: .useItem) {
                    // A protected secret came back: either the context already
                    // satisfied the tree, or the user proved something at a prompt.
                    let proved = before == .allowed || (outcome.prompts > 0 && (call.user == .biometry || call.user == .passcode))
                    #expect(proved, "protected secret read without a satisfying proof")
                }
            case 3:
                var q = ItemQuery(attributes: Self.key)
                q.returnRef = true
                let access = keychain.accessControl(matching: q)
                let before = access?.evaluate(.useKeySign, device: keychain.device, evidence: contextEvidence ?? [])
                let outcome = keychain.sign(q, message: [9], context: label, user: call.user)
                if before == .allowed { #expect(outcome.prompts == 0) }
                if outcome.status == 0, before != .allowed {
                    #expect(outcome.prompts == 1 && (call.user == .biometry || call.user == .passcode))
                }
            case 4:
                let policy: AuthenticationPolicy = call.extra % 2 == 0 ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
                let outcome = keychain.evaluatePolicy(policy, context: label ?? "c1", user: call.user)
                #expect(outcome.prompts <= 1)
            case 5:
                var q = ItemQuery(attributes: Self.key)
                q.returnRef = true
                _ = keychain.evaluateAccessControl(q, operation: .useKeySign, context: label ?? "c1", user: call.user)
            case 6:
                let outcome = keychain.invalidate(context: label ?? "c2")
                #expect(outcome.status == 0)
                let after = keychain.copyMatching(readQuery, context: label ?? "c2", user: .biometry)
                #expect(after.status == LAStatus.invalidContext && after.prompts == 0)
            case 7:
                _ = keychain.apply(Self.events[call.extra % Self.events.count])
            case 8:
                _ = keychain.update(readQuery, service: nil, account: nil, data: [UInt8(call.extra)], context: label, user: call.user)
            default:
                let outcome = keychain.canEvaluatePolicy(.deviceOwnerAuthentication, context: nil)
                #expect(outcome.prompts == 0)
            }
        }
    }

    @Test func contextsAndProofs() async {
        await propertyCheck(count: 1500, input: Self.sequence, Self.setup) { calls, setup in
            run(calls, passwordFlags: Self.flagChoices[setup.0], keyFlags: Self.flagChoices[setup.1].subtracting(.applicationPassword))
        }
    }

    @Test func wwdc22FlowHasOnePrompt() {
        var keychain = KeychainSimulator()
        #expect(keychain.generateKey(Self.key, protection: .aku, flags: [.privateKeyUsage, .biometryCurrentSet]).status == 0)
        var q = ItemQuery(attributes: Self.key)
        q.returnRef = true
        let evaluation = keychain.evaluateAccessControl(q, operation: .useKeySign, context: "ctx", user: .biometry)
        let fetch = keychain.copyMatching(q, context: "ctx")
        let signature = keychain.sign(q, message: Array("transfer".utf8), context: "ctx")
        #expect([evaluation.status, fetch.status, signature.status] == [0, 0, 0])
        #expect(keychain.totalPrompts == 1)
        #expect(signature.signature != nil)
    }
}

@Suite struct ContextDomainStateTests {
    @Test func domainStateChangesWithTheEnrolledSet() {
        var keychain = KeychainSimulator()
        _ = keychain.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "c")
        let before = keychain.contexts["c"]?.domainState
        _ = keychain.apply(.biometryEnrollmentChanged)
        _ = keychain.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "c")
        let after = keychain.contexts["c"]?.domainState
        #expect(before != nil && after != nil && before != after)
        _ = keychain.apply(.lock)
        _ = keychain.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "c")
        #expect(keychain.contexts["c"]?.domainState == after)
    }
}
