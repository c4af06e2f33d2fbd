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
    case denied(KeychainError.Code)

    public var description: String {
        switch self {
        case .allowed: return "allowed"
        case .needsAuthentication(let tree): return "needsAuthentication(\(tree))"
        case .denied(let code): return "denied(\(code.rawValue), \(code.osStatus))"
        }
    }
}

extension Decision {
    /// The rule of the rule book that decided a refusal, named here, where
    /// access control is evaluated, by the step of ``AccessControl/evaluate(_:device:evidence:)``
    /// that refused (nil: not a refusal).
    public var rule: SecRule? {
        guard case .denied(let code) = self else { return nil }
        switch code {
        case .itemNotFound: return .a11  // the item did not survive (a passcode or a device gone)
        case .operationNotAllowed: return .ac3  // the access control has no entry for the operation
        case .interactionNotAllowed: return .q11  // the protection class is locked
        case .authFailed: return .ac6  // the constraint can no longer be satisfied
        default: return .ac10
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
            throw KeychainError(.invalidAccessControl, "or and and together")
        }
        if flags.isSuperset(of: [.biometryAny, .biometryCurrentSet]) {
            throw KeychainError(.invalidAccessControl, "biometryAny with biometryCurrentSet")
        }
        if flags.contains(.userPresence) && !flags.subtracting(AccessControlFlags.userPresenceCompanions).isEmpty {
            throw KeychainError(.invalidAccessControl, "userPresence combines only with applicationPassword and privateKeyUsage")
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
            throw KeychainError(.notSynchronizable, "\(protection.longName) items never leave the device")
        }
        if synchronizable && !flags.isEmpty {
            throw KeychainError(.notSynchronizable, "items with an access-control object do not synchronize")
        }
        if protection.requiresPasscode && !device.passcodeSet {
            throw KeychainError(.notAvailable, "whenPasscodeSetThisDeviceOnly needs a passcode")
        }
        let requirement = Requirement.from(flags)
        if let requirement, !requirement.isBindable(on: device) {
            throw KeychainError(.authFailed, "\(requirement) cannot be bound: no enrolled biometry or no passcode")
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
        guard exists(on: device) else { return .denied(.itemNotFound) }
        let rule = rule(for: operation)
        if case .notAllowed = rule { return .denied(.operationNotAllowed) }
        if operation != .deleteItem && !protection.isAvailable(in: device) { return .denied(.interactionNotAllowed) }
        guard case .requires(let tree) = rule else { return .allowed }
        if tree.isSatisfied(by: evidence, device: device, enrollment: enrollment) { return .allowed }
        guard tree.isSatisfiable(device: device, enrollment: enrollment) else { return .denied(.authFailed) }
        return .needsAuthentication(tree)
    }

    /// One attempt as an app makes it: evaluate with nothing proved, and when
    /// a prompt is needed the user answers with `evidence`. The `cancel`
    /// token is the Cancel button (`userCanceled`); evidence that does not
    /// satisfy the tree — none at all included — is a failed attempt
    /// (`authFailed`), as is a prompt the system dismisses.
    public func perform(_ operation: KeychainOperation, device: DeviceState, evidence: Evidence) -> Result<Void, KeychainError> {
        switch evaluate(operation, device: device, evidence: []) {
        case .allowed: return .success(())
        case .denied(let code): return .failure(KeychainError(code, "\(operation.rawValue) denied"))
        case .needsAuthentication(let tree):
            if evidence.contains(.cancel) { return .failure(KeychainError(.userCanceled, "the user canceled the prompt for \(tree)")) }
            switch evaluate(operation, device: device, evidence: evidence) {
            case .allowed: return .success(())
            case .denied(let code): return .failure(KeychainError(code, "\(operation.rawValue) denied"))
            case .needsAuthentication: return .failure(KeychainError(.authFailed, "what the user proved does not satisfy \(tree)"))
            }
        }
    }
}
