/// One user-authentication constraint.
public enum Constraint: String, Sendable, Hashable, CaseIterable, Codable {
    case userPresence, biometryAny, biometryCurrentSet, devicePasscode, companion, applicationPassword
}

/// A requirement tree, as the keychain stores it for an operation:
/// `or(biometryCurrentSet, devicePasscode)`, `and(biometryAny, applicationPassword)`.
public indirect enum Requirement: Sendable, Hashable, CustomStringConvertible {
    case constraint(Constraint)
    case and([Requirement])
    case or([Requirement])

    public var description: String {
        switch self {
        case .constraint(let c): return c.rawValue
        case .and(let parts): return "and(" + parts.map(\.description).joined(separator: ", ") + ")"
        case .or(let parts): return "or(" + parts.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// The tree for a flag set: the constraints in bit order, joined by `or`
    /// when it is set and by `and` otherwise; an application password is
    /// always required in addition.
    public static func from(_ flags: AccessControlFlags) -> Requirement? {
        let order: [(AccessControlFlags, Constraint)] = [
            (.userPresence, .userPresence), (.biometryAny, .biometryAny), (.biometryCurrentSet, .biometryCurrentSet),
            (.devicePasscode, .devicePasscode), (.companion, .companion),
        ]
        let leaves = order.filter { flags.contains($0.0) }.map { Requirement.constraint($0.1) }
        var base: Requirement?
        switch leaves.count {
        case 0: base = nil
        case 1: base = leaves[0]
        default: base = flags.contains(.or) ? .or(leaves) : .and(leaves)
        }
        guard flags.contains(.applicationPassword) else { return base }
        let password = Requirement.constraint(.applicationPassword)
        switch base {
        case nil: return password
        case .and(let parts)?: return .and(parts + [password])
        case let other?: return .and([other, password])
        }
    }

    /// Whether `evidence`, proved on `device`, satisfies the tree for an item
    /// whose biometry set was bound at `enrollment`.
    public func isSatisfied(by evidence: Evidence, device: DeviceState, enrollment: Int) -> Bool {
        switch self {
        case .and(let parts): return parts.allSatisfy { $0.isSatisfied(by: evidence, device: device, enrollment: enrollment) }
        case .or(let parts): return parts.contains { $0.isSatisfied(by: evidence, device: device, enrollment: enrollment) }
        case .constraint(let c):
            let passcode = evidence.contains(.passcode) && device.passcodeSet
            let biometry = evidence.contains(.biometry) && device.biometryUsable
            switch c {
            case .userPresence: return passcode || biometry
            case .biometryAny: return biometry
            case .biometryCurrentSet: return biometry && device.enrollmentGeneration == enrollment
            case .devicePasscode: return passcode
            case .companion: return evidence.contains(.companion) && device.companion
            case .applicationPassword: return evidence.contains(.applicationPassword)
            }
        }
    }

    /// Whether some evidence could still satisfy the tree on `device` (the
    /// strongest evidence the device allows).
    public func isSatisfiable(device: DeviceState, enrollment: Int) -> Bool {
        isSatisfied(by: [.passcode, .biometry, .companion, .applicationPassword], device: device, enrollment: enrollment)
    }

    /// Whether the tree can be bound on `device` at creation: a biometry
    /// constraint needs an enrolled set, a passcode constraint a passcode.
    /// Binding covers every constraint of the tree, under `or` too.
    func isBindable(on device: DeviceState) -> Bool {
        switch self {
        case .and(let parts), .or(let parts): return parts.allSatisfy { $0.isBindable(on: device) }
        case .constraint(let c):
            let enrolled = device.biometry == .enrolled || device.biometry == .lockout
            switch c {
            case .userPresence, .devicePasscode: return device.passcodeSet
            case .biometryAny, .biometryCurrentSet: return enrolled
            case .companion, .applicationPassword: return true
            }
        }
    }
}
