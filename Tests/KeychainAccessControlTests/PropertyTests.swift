import KeychainAccessControl
import PropertyBased
import Testing
import TestSupport

/// Properties of spec/access-control.md over generated classes, flag sets,
/// device states, events and evidence (1000+ cases each).
@Suite struct AccessControlPropertyTests {
    static let flagBits: [AccessControlFlags] = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .or, .and, .privateKeyUsage, .applicationPassword,
    ]
    static let constraintFlags: [AccessControlFlags] = [.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion]

    static func flags(_ mask: Int) -> AccessControlFlags {
        var f: AccessControlFlags = []
        for (i, bit) in flagBits.enumerated() where mask & (1 << i) != 0 { f.insert(bit) }
        return f
    }

    static func device(_ bits: Int) -> DeviceState {
        DeviceState(
            locked: bits & 1 != 0, unlockedSinceBoot: bits & 2 == 0 || bits & 1 == 0, passcodeSet: bits & 4 == 0,
            biometry: DeviceState.Biometry.allCases[(bits >> 3) & 3], companion: bits & 32 != 0)
    }

    static func evidence(_ bits: Int) -> Evidence { Evidence(rawValue: UInt8(bits & 15)) }

    static let protection = Gen.int(in: 0...(ProtectionClass.allCases.count - 1)).map { ProtectionClass.allCases[$0] }
    static let mask = Gen.int(in: 0...511)
    static let deviceBits = Gen.int(in: 0...63)
    static let events = Gen.int(in: 0...(DeviceEvent.allCases.count - 1)).map { DeviceEvent.allCases[$0] }.array(of: 0...4)
    static let operation = Gen.int(in: 0...(KeychainOperation.allCases.count - 1)).map { KeychainOperation.allCases[$0] }
    static let evidenceBits = Gen.int(in: 0...15)

    struct Scenario: Sendable, CustomStringConvertible {
        let protection: ProtectionClass
        let flags: AccessControlFlags
        let device: DeviceState
        let events: [DeviceEvent]
        let operation: KeychainOperation
        let evidence: Evidence
        var description: String { "\(protection) \(flags.names) \(device) \(events) \(operation) \(evidence.rawValue)" }

        var after: DeviceState {
            var d = device
            for e in events { d.apply(e) }
            return d
        }

        func succeeds(with flags: AccessControlFlags) -> Bool? {
            guard let item = try? AccessControl.create(protection: protection, flags: flags, device: device) else { return nil }
            if case .success = item.perform(operation, device: after, evidence: evidence) { return true }
            return false
        }
    }

    static let scenario = zip(protection, mask, deviceBits, events, operation, evidenceBits).map {
        Scenario(protection: $0.0, flags: flags($0.1), device: device($0.2), events: $0.3, operation: $0.4, evidence: evidence($0.5))
    }
    static let extra = Gen.int(in: 0...(constraintFlags.count - 1)).map { constraintFlags[$0] }

    @Test func addingAnAndConstraintNeverAllowsMore() async {
        let pace = Pace()
        await propertyCheck(count: 2000, input: Self.scenario, Self.extra) { s, extra in
            await pace.step()
            guard !s.flags.contains(.or), !s.flags.contains(extra) else { return }
            if s.succeeds(with: s.flags.union(extra)) == true {
                #expect(s.succeeds(with: s.flags) == true, "\(s) + \(extra.names)")
            }
        }
    }

    @Test func addingAnOrBranchNeverAllowsLess() async {
        let pace = Pace()
        await propertyCheck(count: 2000, input: Self.scenario, Self.extra) { s, extra in
            await pace.step()
            let base = s.flags.union(.or).subtracting(.and)
            guard !base.isDisjoint(with: AccessControlFlags.constraints), !base.contains(extra) else { return }
            guard s.succeeds(with: base) == true, let wider = s.succeeds(with: base.union(extra)) else { return }
            #expect(wider, "\(s) + or \(extra.names)")
        }
    }

    @Test func evidenceThatSatisfiesTheTreeIsAccepted() async {
        let pace = Pace()
        await propertyCheck(count: 2000, input: Self.scenario) { s in
            await pace.step()
            guard let item = try? AccessControl.create(protection: s.protection, flags: s.flags, device: s.device) else { return }
            let device = s.after
            let decision = item.evaluate(s.operation, device: device, evidence: s.evidence)
            switch item.rule(for: s.operation) {
            case .requires(let tree) where tree.isSatisfied(by: s.evidence, device: device, enrollment: item.enrollment):
                if let code = decision.refusalCode {
                    #expect([.itemNotFound, .interactionNotAllowed].contains(code), "\(s): \(decision)")
                } else {
                    #expect(decision == .allowed, "\(s): \(decision)")
                }
            case .requires:
                #expect(decision != .allowed, "\(s): allowed without satisfying evidence")
            case .allowed, .notAllowed:
                #expect(!{ if case .needsAuthentication = decision { return true } else { return false } }())
            }
        }
    }

    @Test func thisDeviceOnlyNeverSurvivesARestore() async {
        let pace = Pace()
        await propertyCheck(count: 2000, input: Self.scenario, Gen.int(in: 0...4)) { s, at in
            await pace.step()
            guard s.protection.isThisDeviceOnly,
                let item = try? AccessControl.create(protection: s.protection, flags: s.flags, device: s.device)
            else { return }
            var events = s.events
            events.insert(.restoredToNewDevice, at: min(at, events.count))
            var device = s.device
            for e in events { device.apply(e) }
            #expect(item.evaluate(s.operation, device: device, evidence: s.evidence).refusalCode == .itemNotFound)
            #expect(!item.exists(on: device))
        }
    }

    /// Every generated input gives a decision; success of `perform` means the
    /// evidence (or nothing) was enough, and a prompt is never needed for an
    /// operation whose rule is `allowed`.
    @Test func noInputTraps() async {
        let pace = Pace()
        await propertyCheck(count: 3000, input: Self.scenario, Gen.bool) { s, synchronizable in
            await pace.step()
            do throws(KeychainError) {
                let item = try AccessControl.create(
                    protection: s.protection, flags: s.flags, synchronizable: synchronizable, device: s.device)
                if case .success = item.perform(s.operation, device: s.after, evidence: s.evidence) {
                    #expect(item.evaluate(s.operation, device: s.after, evidence: s.evidence) == .allowed)
                }
            } catch {
                #expect([KeychainError.Code.invalidAccessControl, .notSynchronizable, .notAvailable, .authFailed].contains(error.code))
            }
        }
    }
}

/// `.companion` is bit 5 on iOS; `.watch`, macOS's name for it, does not
/// exist on iOS, so the vocabulary refuses it (rule book §1g).
@Suite struct CompanionFlagTests {
    @Test func watchIsRefusedAndCompanionIsBitFive() throws {
        #expect(throws: KeychainError.self) { try AccessControlFlags.parse(["watch"]) }
        #expect(try AccessControlFlags.parse(["companion"]).rawValue == 1 << 5)
    }
}
