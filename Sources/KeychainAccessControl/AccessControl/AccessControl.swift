/// Keychain operations an access control governs (docs/models/keychain-acl.md, Vocabulary).
public enum KeychainOperation: String, Sendable, Hashable, CaseIterable, Codable {
    case createItem, useItem, createKey, useKeySign, useKeyDecrypt, useKeyKeyExchange, deleteItem

    /// Sign, decrypt or key exchange.
    public var isKeyUse: Bool { self == .useKeySign || self == .useKeyDecrypt || self == .useKeyKeyExchange }
}

/// What an operation needs, as stored in the item's ACL.
public enum OperationRule: Sendable, Hashable, CustomStringConvertible {
    case allowed
    case requires(Requirement)
    case notAllowed

    public var description: String {
        switch self {
        case .allowed: return "allowed"
        case .requires(let tree): return tree.description
        case .notAllowed: return "not allowed"
        }
    }
}

/// The outcome of evaluating an operation (docs/models/keychain-acl.md, Vocabulary and Evaluation order).
public enum Decision: Sendable, Hashable, CustomStringConvertible {
    case allowed
    /// A prompt must obtain this (what is not yet satisfied).
    case needsAuthentication(Requirement)
    /// Refused: the code, the rule that refused and why, made by the step
    /// of ``AccessControl/evaluate(_:device:evidence:)`` that refused.
    case denied(KeychainError)

    /// The refusal's code (nil: not a refusal).
    public var refusalCode: KeychainError.Code? {
        guard case .denied(let error) = self else { return nil }
        return error.code
    }

    public var description: String {
        switch self {
        case .allowed: return "allowed"
        case .needsAuthentication(let tree): return "needsAuthentication(\(tree))"
        case .denied(let error): return "denied(\(error.code.rawValue), \(error.code.osStatus), \(error.explanation))"
        }
    }
}

/// A stored item's access control: protection class, flags, and what was
/// bound at creation (biometry set, passcode, device).
public struct AccessControl: Sendable, Hashable {
    public let protection: ProtectionClass
    public let flags: AccessControlFlags
    public let synchronizable: Bool
    /// The constraint tree (nil: no user authentication).
    public let requirement: Requirement?
    /// The biometry set bound at creation (``DeviceState/enrollmentGeneration``).
    public let enrollment: Int
    let passcodeGeneration: Int
    let hardwareGeneration: Int

    /// What `SecAccessControlCreateWithFlags` itself checks: the flag
    /// combination only, never the device (AC1). `.or` or `.and` with no
    /// constraint is legal and means no constraint (AC2).
    public static func validate(_ flags: AccessControlFlags) throws(KeychainError) {
        if flags.isSuperset(of: [.or, .and]) {
            throw KeychainError(.invalidAccessControl, rule: .ac1, "or and and together")
        }
        if flags.isSuperset(of: [.biometryAny, .biometryCurrentSet]) {
            throw KeychainError(.invalidAccessControl, rule: .ac1, "biometryAny with biometryCurrentSet")
        }
        if flags.contains(.userPresence) && !flags.subtracting(AccessControlFlags.userPresenceCompanions).isEmpty {
            throw KeychainError(
                .invalidAccessControl, rule: .ac1, "userPresence combines only with applicationPassword and privateKeyUsage")
        }
    }

    /// `SecAccessControlCreateWithFlags` plus the add-time checks of
    /// `SecItemAdd`, in this order: flag combination (`invalidAccessControl`),
    /// synchronizable (`notSynchronizable`), akpu without a passcode
    /// (`notAvailable`), constraints that cannot be bound on `device` (`authFailed`).
    /// An empty flag set means a plain `kSecAttrAccessible` item.
    public static func create(
        protection: ProtectionClass, flags: AccessControlFlags, synchronizable: Bool = false, device: DeviceState
    ) throws(KeychainError) -> AccessControl {
        try validate(flags)
        if synchronizable && protection.isThisDeviceOnly {
            throw KeychainError(.notSynchronizable, rule: .a10, "\(protection.longName) items never leave the device")
        }
        if synchronizable && !flags.isEmpty {
            throw KeychainError(.notSynchronizable, rule: .a9, "items with an access-control object do not synchronize")
        }
        if protection.requiresPasscode && !device.passcodeSet {
            throw KeychainError(.notAvailable, rule: .a11, "whenPasscodeSetThisDeviceOnly needs a passcode")
        }
        let requirement = Requirement.from(flags)
        if let requirement, !requirement.isBindable(on: device) {
            throw KeychainError(.authFailed, rule: .ac5, "\(requirement) cannot be bound: no enrolled biometry or no passcode")
        }
        return AccessControl(
            protection: protection, flags: flags, synchronizable: synchronizable, requirement: requirement,
            enrollment: device.enrollmentGeneration, passcodeGeneration: device.passcodeGeneration,
            hardwareGeneration: device.hardwareGeneration)
    }

    /// What `operation` needs for this item: the constraint table of the spec.
    /// With privateKeyUsage the access control has key-use entries only: no
    /// read, and no creation of an item that is not a key.
    public func rule(for operation: KeychainOperation) -> OperationRule {
        let keyOnly = flags.contains(.privateKeyUsage)
        switch operation {
        case .createItem:
            return keyOnly ? .notAllowed : .allowed
        case .createKey, .deleteItem:
            return .allowed
        case .useItem:
            if keyOnly { return .notAllowed }
            return requirement.map(OperationRule.requires) ?? .allowed
        case .useKeySign, .useKeyDecrypt, .useKeyKeyExchange:
            return requirement.map(OperationRule.requires) ?? .allowed
        }
    }

    /// Whether the item still exists on `device`: ThisDeviceOnly items stay
    /// behind on a restore; akpu items die with the passcode.
    public func exists(on device: DeviceState) -> Bool {
        if protection.isThisDeviceOnly && device.hardwareGeneration != hardwareGeneration { return false }
        if protection.requiresPasscode && device.passcodeGeneration != passcodeGeneration { return false }
        return true
    }

    /// Evaluates `operation` on `device` with what the context has proved.
    /// Order: existence, the operation's rule, the protection class (not for
    /// delete), then the constraints.
    public func evaluate(_ operation: KeychainOperation, device: DeviceState, evidence: Evidence) -> Decision {
        guard exists(on: device) else {
            return .denied(KeychainError(.itemNotFound, rule: .a11, "the item no longer exists on this device"))
        }
        let rule = rule(for: operation)
        if case .notAllowed = rule {
            return .denied(KeychainError(.operationNotAllowed, rule: .ac3, "the access control has no \(operation.rawValue) entry"))
        }
        if operation != .deleteItem && !protection.isAvailable(in: device) {
            return .denied(KeychainError(.interactionNotAllowed, rule: .q11, "the item's class \(protection.rawValue) is locked"))
        }
        guard case .requires(let tree) = rule else { return .allowed }
        if tree.isSatisfied(by: evidence, device: device, enrollment: enrollment) { return .allowed }
        guard tree.isSatisfiable(device: device, enrollment: enrollment) else {
            return .denied(
                KeychainError(
                    .authFailed, rule: .ac6, "\(tree) can no longer be satisfied (enrolment changed, biometry or passcode gone)"))
        }
        return .needsAuthentication(tree)
    }

    /// One attempt as an app makes it: evaluate with nothing proved, and when
    /// a prompt is needed the user answers with `evidence`. The `cancel`
    /// token is the Cancel button (`userCanceled`); evidence that does not
    /// satisfy the tree — none at all included — is a failed attempt
    /// (`authFailed`), as is a prompt the system dismisses (AC10 both).
    public func perform(_ operation: KeychainOperation, device: DeviceState, evidence: Evidence) -> Result<Void, KeychainError> {
        switch evaluate(operation, device: device, evidence: []) {
        case .allowed: return .success(())
        case .denied(let error): return .failure(error)
        case .needsAuthentication(let tree):
            if evidence.contains(.cancel) {
                return .failure(KeychainError(.userCanceled, rule: .ac10, "the user canceled the prompt for \(tree)"))
            }
            switch evaluate(operation, device: device, evidence: evidence) {
            case .allowed: return .success(())
            case .denied(let error): return .failure(error)
            case .needsAuthentication:
                return .failure(KeychainError(.authFailed, rule: .ac10, "what the user proved does not satisfy \(tree)"))
            }
        }
    }
}
