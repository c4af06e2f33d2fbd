/// The device as the keychain sees it (docs/models/keychain-acl.md, Vocabulary and Evaluation order).
public struct DeviceState: Sendable, Hashable {
    public enum Biometry: String, Sendable, Hashable, CaseIterable, Codable {
        case none, notEnrolled, enrolled, lockout
    }

    public var locked: Bool
    public var unlockedSinceBoot: Bool
    public var passcodeSet: Bool
    public var biometry: Biometry
    /// A paired companion (Apple Watch) is near and unlocked.
    public var companion: Bool
    /// A paired Watch set up only to unlock the phone is near (LA3: it is no
    /// authentication companion, and the companion policy answers -1000).
    public var unlockOnlyCompanion = false
    /// Identifies the enrolled biometry set: changes with every enrollment change.
    public var enrollmentGeneration: Int
    /// Changes each time the passcode is removed (akpu items die with it).
    public var passcodeGeneration: Int
    /// Changes with a restore onto another device (ThisDeviceOnly items stay behind).
    public var hardwareGeneration: Int

    /// The defaults of docs/vectors.md: an unlocked phone with a passcode and enrolled biometry.
    public init(
        locked: Bool = false, unlockedSinceBoot: Bool = true, passcodeSet: Bool = true, biometry: Biometry = .enrolled,
        companion: Bool = false
    ) {
        self.locked = locked
        self.unlockedSinceBoot = unlockedSinceBoot
        self.passcodeSet = passcodeSet
        self.biometry = biometry
        self.companion = companion
        enrollmentGeneration = 0
        passcodeGeneration = 0
        hardwareGeneration = 0
    }

    /// Whether biometry can match now (enrolled and not locked out).
    public var biometryUsable: Bool { biometry == .enrolled }

    /// Applies an event that happened after an item was created.
    public mutating func apply(_ event: DeviceEvent) {
        switch event {
        case .lock:
            // Without a passcode the class keys are never locked away.
            if passcodeSet { locked = true }
        case .unlock:
            locked = false
            unlockedSinceBoot = true
            // Unlocking with the passcode clears a biometry lockout.
            if biometry == .lockout { biometry = .enrolled }
        case .reboot:
            locked = passcodeSet
            unlockedSinceBoot = !passcodeSet
        case .passcodeRemoved:
            passcodeSet = false
            locked = false
            unlockedSinceBoot = true
            passcodeGeneration += 1
            // Biometry needs a passcode: its enrollment goes with it.
            if biometry == .enrolled || biometry == .lockout {
                biometry = .notEnrolled
                enrollmentGeneration += 1
            }
        case .passcodeSet:
            passcodeSet = true
        case .biometryEnrollmentChanged:
            if biometry != .none {
                biometry = passcodeSet ? .enrolled : .notEnrolled
                enrollmentGeneration += 1
            }
        case .biometryLockout:
            if biometry == .enrolled { biometry = .lockout }
        case .restoredToNewDevice:
            hardwareGeneration += 1
            // The new device has its own biometry set.
            enrollmentGeneration += 1
        }
    }
}

/// Events after an item's creation (docs/vectors.md, keychain-acl `events`).
public enum DeviceEvent: String, Sendable, Hashable, CaseIterable, Codable {
    case lock, unlock, reboot, passcodeRemoved, passcodeSet, biometryEnrollmentChanged, biometryLockout, restoredToNewDevice
}

/// What the user proves in one authentication context (an LAContext's evidence).
public struct Evidence: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passcode = Evidence(rawValue: 1 << 0)
    public static let biometry = Evidence(rawValue: 1 << 1)
    public static let companion = Evidence(rawValue: 1 << 2)
    public static let applicationPassword = Evidence(rawValue: 1 << 3)
    /// Not a proof: the user dismissed the prompt with the Cancel button.
    public static let cancel = Evidence(rawValue: 1 << 4)

    public static let names: [(String, Evidence)] = [
        ("passcode", .passcode), ("biometry", .biometry), ("companion", .companion), ("applicationPassword", .applicationPassword),
        ("cancel", .cancel),
    ]

    public static func parse(_ list: [String]) throws(KeychainError) -> Evidence {
        try parseNames(list, table: names, kind: "evidence")
    }
}

/// What the simulated user does when a prompt appears (keychain flows and
/// LocalAuthentication rights share it).
public enum UserAnswer: String, Sendable, Hashable, CaseIterable, Codable {
    case biometry, passcode, fail, cancel
}

extension DeviceState {
    /// What keeps biometry from being evaluated on this device (LAError), or
    /// nil when it is enrolled and not locked out: the one biometry → LAError mapping.
    public var biometryObstacle: LAErrorCode? {
        switch biometry {
        case .none: .biometryNotAvailable
        case .notEnrolled: .biometryNotEnrolled
        case .lockout: .biometryLockout
        case .enrolled: nil
        }
    }
}
