import KeychainAccessControl
import KeychainModel
import PropertyBased
import ReferenceSubjects
import Testing
import TestSupport
import VectorContract

/// One protected password read with `copyMatching` against an oracle written
/// from spec/keychain-flows.md's table alone ("Calls and status codes": what
/// `useAuthenticationUI` does, one prompt, the user's answer, the status of
/// each outcome) and spec/access-control.md's flag table (what each answer
/// proves). It shares no code with the simulator, so an item that opened
/// without a prompt, a prompt that was not counted or a wrong status for a
/// cancelled prompt fails here even when the model agrees with itself.
@Suite struct FlowSpecOracleTests {
    /// Access controls of the item and what a single answer must prove: any one of `anyOf`, or every one of `allOf`.
    struct Protection: Sendable, CustomStringConvertible {
        let flags: AccessControlFlags
        let satisfiedBy: Set<UserAnswer>
        var description: String { flags.names.isEmpty ? "(none)" : flags.names.joined(separator: ",") }
    }

    static let protections: [Protection] = [
        Protection(flags: [], satisfiedBy: []),
        Protection(flags: .userPresence, satisfiedBy: [.biometry, .passcode]),
        Protection(flags: .biometryAny, satisfiedBy: [.biometry]),
        Protection(flags: .biometryCurrentSet, satisfiedBy: [.biometry]),
        Protection(flags: .devicePasscode, satisfiedBy: [.passcode]),
        Protection(flags: [.biometryCurrentSet, .or, .devicePasscode], satisfiedBy: [.biometry, .passcode]),
        // Both at once: one prompt proves one thing, so no single answer opens it.
        Protection(flags: [.biometryAny, .and, .devicePasscode], satisfiedBy: []),
    ]
    static let answers: [UserAnswer] = [.biometry, .passcode, .fail, .cancel]

    /// The spec's status and prompt count for the read.
    static func expected(_ protection: Protection, ui: KeychainFlowFamily.AuthenticationUI, answer: UserAnswer) -> (
        CallStatus, prompts: Int
    ) {
        if protection.flags.isEmpty { return (.success, 0) }
        switch ui {
        case .skip: return (.keychain(.itemNotFound), 0)  // protected items look absent
        case .fail: return (.keychain(.interactionNotAllowed), 0)  // a prompt would be needed
        case .allow:
            if answer == .cancel { return (.keychain(.userCanceled), 1) }
            return (protection.satisfiedBy.contains(answer) ? .success : .keychain(.authFailed), 1)
        }
    }

    @Test func protectedReadAnswersAsTheTableSays() async {
        let scenario = zip(Gen.int(in: 0...(Self.protections.count - 1)), Gen.int(in: 0...2), Gen.int(in: 0...3))
        let pace = Pace()
        await propertyCheck(count: 500, input: scenario) { drawn in
            await pace.step()
            let protection = Self.protections[drawn.0]
            let ui = KeychainFlowFamily.AuthenticationUI.allCases[drawn.1]
            let answer = Self.answers[drawn.2]
            var keychain = KeychainSimulator()
            let item = KeychainFlowFamily.Item(
                class: .genericPassword, service: "svc", account: "a", protection: "ak", flags: protection.flags.names, data: [7])
            #expect((try? keychain.add(item))?.status == .success)
            let query = KeychainFlowFamily.Query(
                class: .genericPassword, service: "svc", account: "a", returnData: true, useAuthenticationUI: ui)
            guard let outcome = try? keychain.copyMatching(query, user: answer) else {
                Issue.record("the query was refused as input")
                return
            }
            let (status, prompts) = Self.expected(protection, ui: ui, answer: answer)
            #expect(outcome.status == status, "\(protection) ui \(ui) answer \(answer): \(outcome.status)")
            #expect(outcome.prompts == prompts, "\(protection) ui \(ui) answer \(answer): \(outcome.prompts) prompt(s)")
            #expect((outcome.data == [7]) == (status == .success), "\(protection) ui \(ui) answer \(answer): data \(outcome.data ?? [])")
        }
    }
}
