import KeychainAccessControl
import KeychainModel
import PropertyBased
import ReferenceSubjects
import Testing
import TestSupport
import VectorContract

/// Model-based properties of keychain flows over random call sequences:
/// a context that proved what an item needs never prompts again for it, no
/// sequence reads a protected secret without a satisfying proof, no trap.
@Suite struct FlowPropertyTests {
    typealias Flow = KeychainFlowFamily
    static let password = Flow.Query(class: .genericPassword, service: "svc", account: "a")
    static let key = Flow.Query(class: .key, applicationTag: "tag", tokenID: "secureEnclave")

    /// The password item, stored as `ak` with `flags`.
    static func passwordItem(_ flags: AccessControlFlags) -> Flow.Item {
        Flow.Item(class: .genericPassword, service: "svc", account: "a", protection: "ak", flags: flags.names, data: [1, 2, 3])
    }

    /// The Secure Enclave key, stored as `aku` with `flags`.
    static func keyItem(_ flags: AccessControlFlags) -> Flow.Item {
        Flow.Item(class: .key, applicationTag: "tag", tokenID: "secureEnclave", protection: "aku", flags: flags.names)
    }
    /// Every flag combination: any subset of the constraints, applicationPassword
    /// and privateKeyUsage, joined by nothing, `or` or `and` (creation refuses
    /// the combinations the spec forbids; those runs check that nothing is stored).
    static let flagChoices: [AccessControlFlags] = {
        let singles: [AccessControlFlags] = [
            .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion,
            .applicationPassword, .privateKeyUsage,
        ]
        var all: [AccessControlFlags] = []
        for mask in 0..<(1 << singles.count) {
            let base = singles.indices.filter { mask & (1 << $0) != 0 }.reduce(into: AccessControlFlags()) { $0.formUnion(singles[$1]) }
            for joiner in [AccessControlFlags(), .or, .and] { all.append(base.union(joiner)) }
        }
        return all
    }()
    static let events: [DeviceEvent] = [
        .lock, .unlock, .biometryEnrollmentChanged, .biometryLockout, .reboot, .passcodeRemoved, .passcodeSet,
    ]
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

    var readQuery: Flow.Query {
        var q = Self.password
        q.returnData = true
        return q
    }

    /// What the simulated user's answer proves on `device` (nothing for fail, cancel or no answer).
    static func proof(of answer: UserAnswer?, on device: DeviceState) -> Evidence {
        switch answer {
        case .biometry?: return device.biometryUsable ? .biometry : []
        case .passcode?: return device.passcodeSet ? .passcode : []
        default: return []
        }
    }

    /// Whether a read of the secret that just succeeded was backed by a
    /// satisfying proof: what the context held before the call, or that plus
    /// what the user proved at a prompt the call raised.
    static func readWasProved(_ access: AccessControl, device: DeviceState, context: Evidence, prompts: Int, user: UserAnswer?) -> Bool {
        if access.evaluate(.useItem, device: device, evidence: context) == .allowed { return true }
        guard prompts > 0 else { return false }
        return access.evaluate(.useItem, device: device, evidence: context.union(proof(of: user, on: device))) == .allowed
    }

    /// Runs a sequence and checks the properties at every read and signature.
    func run(_ calls: [Call], passwordFlags: AccessControlFlags, keyFlags: AccessControlFlags) throws {
        var keychain = KeychainSimulator()
        let added = try keychain.add(Self.passwordItem(passwordFlags))
        if added.status != .success { #expect(keychain.accessControl(matching: readQuery) == nil, "a refused add stored an item") }
        _ = try keychain.generateKey(Self.keyItem(keyFlags.union(.privateKeyUsage)))
        for call in calls {
            let label = call.contextLabel
            let contextEvidence = label.flatMap { keychain.contexts[$0] }.map { $0.invalidated ? nil : $0.evidence } ?? nil
            switch call.kind {
            case 0, 1, 2:
                let access = keychain.accessControl(matching: readQuery)
                let device = keychain.device
                let before = access?.evaluate(.useItem, device: device, evidence: contextEvidence ?? [])
                let outcome = try keychain.copyMatching(readQuery, context: label, user: call.user)
                if before == .allowed { #expect(outcome.prompts == 0, "context proved enough, yet \(outcome.prompts) prompt(s)") }
                if outcome.data != nil, let access {
                    // No secret comes back without a satisfying proof, whatever the access control.
                    #expect(
                        Self.readWasProved(
                            access, device: device, context: contextEvidence ?? [], prompts: outcome.prompts, user: call.user),
                        "secret read without a satisfying proof under \(access.flags.names)")
                }
            case 3:
                let q = Self.key
                let access = keychain.accessControl(matching: q)
                let before = access?.evaluate(.useKeySign, device: keychain.device, evidence: contextEvidence ?? [])
                let outcome = try keychain.sign(q, message: [9], context: label, user: call.user)
                if before == .allowed { #expect(outcome.prompts == 0) }
                if outcome.status == .success, before != .allowed, let access {
                    let proved = (contextEvidence ?? []).union(Self.proof(of: call.user, on: keychain.device))
                    #expect(outcome.prompts == 1 && access.evaluate(.useKeySign, device: keychain.device, evidence: proved) == .allowed)
                }
            case 4:
                let policy: Flow.Policy =
                    call.extra % 2 == 0 ? .deviceOwnerAuthentication : .deviceOwnerAuthenticationWithBiometrics
                let outcome = keychain.evaluatePolicy(policy, context: label ?? "c1", user: call.user)
                #expect(outcome.prompts <= 1)
            case 5:
                _ = try keychain.evaluateAccessControl(Self.key, operation: .useKeySign, context: label ?? "c1", user: call.user)
            case 6:
                let outcome = keychain.invalidate(context: label ?? "c2")
                #expect(outcome.status == .success)
                // Through an invalidated context: never a prompt, and a protected secret is never returned.
                let access = keychain.accessControl(matching: readQuery)
                let after = try keychain.copyMatching(readQuery, context: label ?? "c2", user: .biometry)
                #expect(after.prompts == 0)
                if after.data != nil, let access {
                    #expect(
                        access.evaluate(.useItem, device: keychain.device, evidence: []) == .allowed,
                        "invalidated context read a protected secret")
                }
            case 7:
                _ = keychain.apply(Self.events[call.extra % Self.events.count])
            case 8:
                let access = keychain.accessControl(matching: readQuery)
                let device = keychain.device
                let outcome = try keychain.update(
                    readQuery, changes: Flow.Changes(data: [UInt8(call.extra)]), context: label, user: call.user)
                if outcome.status == .success, let access {
                    #expect(
                        Self.readWasProved(
                            access, device: device, context: contextEvidence ?? [], prompts: outcome.prompts, user: call.user),
                        "secret changed without a satisfying proof under \(access.flags.names)")
                }
            default:
                let outcome = keychain.canEvaluatePolicy(.deviceOwnerAuthentication, context: nil)
                #expect(outcome.prompts == 0)
            }
        }
    }

    @Test func contextsAndProofs() async {
        let pace = Pace()
        await propertyCheck(count: 1500, input: Self.sequence, Self.setup) { calls, setup in
            await pace.step()
            #expect(throws: Never.self) {
                try run(
                    calls, passwordFlags: Self.flagChoices[setup.0], keyFlags: Self.flagChoices[setup.1].subtracting(.applicationPassword))
            }
        }
    }

    /// Every flag combination at least once, each with a random sequence.
    @Test func everyFlagCombinationGuardsItsSecret() async throws {
        let pace = Pace()
        await propertyCheck(count: 1000, input: Self.sequence, Gen.int(in: 0...(Self.flagChoices.count - 1))) { calls, index in
            await pace.step()
            #expect(throws: Never.self) { try run(calls, passwordFlags: Self.flagChoices[index], keyFlags: []) }
        }
        for flags in Self.flagChoices {
            try run(
                [
                    Call(kind: 0, context: 2, answer: 0, extra: 0), Call(kind: 0, context: 2, answer: 1, extra: 0),
                    Call(kind: 8, context: 2, answer: 3, extra: 1),
                ], passwordFlags: flags, keyFlags: [])
        }
    }

    @Test func wwdc22FlowHasOnePrompt() throws {
        var keychain = KeychainSimulator()
        #expect(try keychain.generateKey(Self.keyItem([.privateKeyUsage, .biometryCurrentSet])).status == .success)
        let q = Self.key
        let evaluation = try keychain.evaluateAccessControl(q, operation: .useKeySign, context: "ctx", user: .biometry)
        let fetch = try keychain.copyMatching(q, context: "ctx")
        let signature = try keychain.sign(q, message: Array("transfer".utf8), context: "ctx")
        #expect([evaluation.status, fetch.status, signature.status] == [.success, .success, .success])
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

/// spec/keychain-flows.md: the domain state is set only by a successful
/// biometric evaluatePolicy or a successful biometric canEvaluatePolicy.
@Suite struct DomainStateSourceTests {
    @Test func onlySuccessfulBiometricChecksSetIt() {
        var keychain = KeychainSimulator()
        _ = keychain.evaluatePolicy(.deviceOwnerAuthentication, context: "c", user: .passcode)
        _ = keychain.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "c", user: .fail)
        _ = keychain.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "c", user: .cancel)
        _ = keychain.canEvaluatePolicy(.deviceOwnerAuthentication, context: "c")
        #expect(keychain.contexts["c"]?.domainState == nil)
        var noBiometry = KeychainSimulator(device: DeviceState(biometry: .notEnrolled))
        _ = noBiometry.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "c")
        #expect(noBiometry.contexts["c"]?.domainState == nil)
        // A fresh context: "c" already proved the passcode, so it would not prompt again (rule book LA6).
        #expect(keychain.evaluatePolicy(.deviceOwnerAuthentication, context: "e", user: .biometry).status == .success)
        #expect(keychain.contexts["e"]?.domainState != nil)
        var checked = KeychainSimulator()
        #expect(checked.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, context: "d").status == .success)
        #expect(checked.contexts["d"]?.domainState != nil)
    }
}
