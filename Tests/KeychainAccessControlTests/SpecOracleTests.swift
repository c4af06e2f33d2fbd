import KeychainAccessControl
import PropertyBased
import Testing
import TestSupport

/// The access-control model against an oracle written from the tables of
/// spec/access-control.md alone ("Flags", "Operations", "Evaluation"),
/// sharing no code with the model: creation refusals, which operations need
/// the constraint, which evidence satisfies each flag, and the codes of a
/// failed or cancelled prompt. The other properties compare the model with
/// itself; this one would catch, for example, an item that opens with no
/// evidence. Domain: a device that stays unlocked with its passcode set and
/// biometry enrolled (so every protection class is readable and creation
/// binds), a paired companion, events that change the enrolled set or lock
/// biometry out.
@Suite struct SpecOracleTests {
    enum Expected: Equatable {
        case success
        case failure(KeychainError.Code)
    }

    /// The spec's constraint flags and what proves each (the "Flags" table).
    static let constraints: [AccessControlFlags] = [.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion]

    /// spec/access-control.md, "Flags": the combinations creation refuses.
    static func creationRefused(_ flags: AccessControlFlags) -> Bool {
        if flags.contains(.or) && flags.contains(.and) { return true }
        if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) { return true }
        if flags.contains(.userPresence) {
            let others: [AccessControlFlags] = [.biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .or, .and]
            if others.contains(where: flags.contains) { return true }
        }
        return false
    }

    /// Whether `evidence` proves one constraint flag on the device after the
    /// events: biometry counts while it is enrolled and not locked out, and
    /// for biometryCurrentSet only if the enrolled set never changed.
    static func proves(_ flag: AccessControlFlags, _ evidence: Evidence, biometryUsable: Bool, setChanged: Bool) -> Bool {
        let biometry = evidence.contains(.biometry) && biometryUsable
        switch flag {
        case .userPresence: return biometry || evidence.contains(.passcode)
        case .biometryAny: return biometry
        case .biometryCurrentSet: return biometry && !setChanged
        case .devicePasscode: return evidence.contains(.passcode)
        default: return evidence.contains(.companion)  // companion
        }
    }

    /// The spec's decision for one scenario.
    static func expected(
        _ flags: AccessControlFlags, _ events: [DeviceEvent], _ operation: KeychainOperation,
        _ evidence: Evidence
    ) -> Expected {
        if creationRefused(flags) { return .failure(.invalidAccessControl) }
        let present = constraints.filter(flags.contains)
        let keyUsage = flags.contains(.privateKeyUsage)
        // "Operations": with privateKeyUsage there are no read or write entries.
        if keyUsage && operation == .useItem { return .failure(.operationNotAllowed) }
        let needsConstraint = keyUsage ? [.useKeySign, .useKeyDecrypt, .useKeyKeyExchange].contains(operation) : operation == .useItem
        guard needsConstraint, !present.isEmpty else { return .success }
        // Lockout stops biometry until a new enrollment (nothing in the domain unlocks with the passcode).
        var biometryUsable = true, setChanged = false
        for event in events {
            if event == .biometryLockout { biometryUsable = false }
            if event == .biometryEnrollmentChanged { biometryUsable = true; setChanged = true }
        }
        func met(by evidence: Evidence) -> Bool {
            let proved = present.map { proves($0, evidence, biometryUsable: biometryUsable, setChanged: setChanged) }
            return flags.contains(.or) ? proved.contains(true) : !proved.contains(false)
        }
        // A tree nothing can satisfy any more (biometryCurrentSet after an enrollment change, biometry locked
        // out) fails without a prompt, so without a Cancel button either.
        guard met(by: [.passcode, .biometry, .companion]) else { return .failure(.authFailed) }
        // "Evaluation": the Cancel button gives userCanceled; evidence that does not satisfy the tree is a failed try.
        if evidence.contains(.cancel) { return .failure(.userCanceled) }
        return met(by: evidence) ? .success : .failure(.authFailed)
    }

    static let flagMask = Gen.int(in: 0...255)
    static func flags(_ mask: Int) -> AccessControlFlags {
        let bits: [AccessControlFlags] = [
            .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .or, .and, .privateKeyUsage,
        ]
        return bits.indices.filter { mask & (1 << $0) != 0 }.reduce(into: AccessControlFlags()) { $0.formUnion(bits[$1]) }
    }
    static let events = Gen.int(in: 0...1).map { [DeviceEvent.biometryEnrollmentChanged, .biometryLockout][$0] }.array(of: 0...2)
    static let operations: [KeychainOperation] = [.useItem, .deleteItem, .useKeySign, .useKeyDecrypt, .useKeyKeyExchange]
    static let operation = Gen.int(in: 0...(operations.count - 1)).map { operations[$0] }
    static let evidence = Gen.int(in: 0...31).map { Evidence(rawValue: UInt8($0)) }
    static let protection = Gen.int(in: 0...(ProtectionClass.allCases.count - 1)).map { ProtectionClass.allCases[$0] }

    @Test func modelDecidesAsTheSpecTableSays() async {
        let scenario = zip(Self.protection, Self.flagMask, Self.events, Self.operation, Self.evidence)
        let pace = Pace()
        await propertyCheck(count: 4000, input: scenario) { drawn in
            await pace.step()
            let (protection, mask, events, operation, evidence) = drawn
            let flags = Self.flags(mask)
            // Key operations on a password without privateKeyUsage, or useItem's absence of rules on keys, are not in the table.
            if !flags.contains(.privateKeyUsage) && ![.useItem, .deleteItem].contains(operation) { return }
            if flags.contains(.privateKeyUsage) && operation == .deleteItem { return }
            let want = Self.expected(flags, events, operation, evidence)
            let start = DeviceState(companion: true)
            let got: Expected
            do throws(KeychainError) {
                let item = try AccessControl.create(protection: protection, flags: flags, device: start)
                var device = start
                for event in events { device.apply(event) }
                switch item.perform(operation, device: device, evidence: evidence) {
                case .success: got = .success
                case .failure(let error): got = .failure(error.code)
                }
            } catch {
                got = .failure(error.code)
            }
            #expect(got == want, "\(protection) \(flags.names) \(events) \(operation) evidence \(evidence.rawValue)")
        }
    }
}
