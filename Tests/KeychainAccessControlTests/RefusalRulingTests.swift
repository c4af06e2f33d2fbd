import KeychainAccessControl
import Testing

/// Each refusal of ``AccessControl/evaluate(_:device:evidence:)`` carries the
/// rule of the step that made it (issue 56, item 1): the code alone no
/// longer names the rule, so two refusals with one code can name two rules.
@Suite struct RefusalRulingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let protection: ProtectionClass
        let flags: AccessControlFlags
        let operation: KeychainOperation
        let events: [DeviceEvent]
        let code: KeychainError.Code
        let rule: SecRule
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a ThisDeviceOnly item after a restore is gone (A11)", protection: .aku, flags: [], operation: .useItem,
            events: [.restoredToNewDevice], code: .itemNotFound, rule: .a11),
        Case(
            name: "privateKeyUsage has no read entry (AC3)", protection: .ak, flags: [.privateKeyUsage, .biometryAny],
            operation: .useItem, events: [], code: .operationNotAllowed, rule: .ac3),
        Case(
            name: "a locked class (Q11)", protection: .ak, flags: [], operation: .useItem, events: [.lock], code: .interactionNotAllowed,
            rule: .q11),
        Case(
            name: "biometryCurrentSet after an enrolment change (AC6)", protection: .ak, flags: [.biometryCurrentSet],
            operation: .useItem, events: [.biometryEnrollmentChanged], code: .authFailed, rule: .ac6),
    ]

    @Test(arguments: cases)
    func aRefusalNamesTheStepThatMadeIt(_ c: Case) throws {
        var device = DeviceState()
        let access = try AccessControl.create(protection: c.protection, flags: c.flags, device: device)
        for event in c.events { device.apply(event) }
        let decision = access.evaluate(c.operation, device: device, evidence: [])
        guard case .denied(let refusal) = decision else {
            Issue.record("not refused: \(decision)")
            return
        }
        #expect(refusal.code == c.code)
        #expect(refusal.rule == .rule(c.rule), "\(refusal.explanation)")
        #expect(refusal.explanation.hasPrefix("\(c.rule): "))
    }

    /// `perform` hands the evaluation's own refusal on, rule and reason
    /// included, rather than a new one made from its code.
    @Test func performKeepsTheRefusalItWasGiven() throws {
        var device = DeviceState()
        let access = try AccessControl.create(protection: .ak, flags: [.biometryCurrentSet], device: device)
        device.apply(.biometryEnrollmentChanged)
        guard case .denied(let evaluated) = access.evaluate(.useItem, device: device, evidence: []) else {
            Issue.record("not refused")
            return
        }
        guard case .failure(let performed) = access.perform(.useItem, device: device, evidence: [.biometry]) else {
            Issue.record("performed")
            return
        }
        #expect(performed.ruling == evaluated.ruling)
    }
}
