import Crypto
import KeychainAccessControl

/// SecItem, SecKey and LAContext as Apple's iOS (data-protection) keychain
/// implements them (docs/models/secitem.md): a value
/// type, so a run is deterministic and a property test can copy it. Every
/// call answers a status with the rule that decided it and one line of
/// reason, and counts the prompts it raised. The `Security` and
/// `LocalAuthentication` modules translate Core Foundation into
/// ``SecValue`` and call this; they decide nothing.
public struct KeychainEngine: Sendable {
    public var app: AppIdentity
    public internal(set) var device: DeviceState
    /// The device's biometry hardware (`LABiometryType`).
    public var biometryKind: BiometryKind
    /// Seconds since 2001-01-01 (CFAbsoluteTime): creation and modification dates, reuse durations.
    public var now: Double
    /// The user's answers to the next prompts, in order.
    public var answers: [PromptAnswer] = []
    /// The answer to a prompt when `answers` is empty; nil (the default) is
    /// strict: the prompt fails as a cancel and the call log says no answer was queued.
    public var defaultAnswer: PromptAnswer?
    /// How long an evaluated `LAContext` stays satisfied (LA6); nil: until invalidated.
    public var contextLifetime: Double?
    /// When the device was last unlocked with biometry (LA5), nil: not since the engine started.
    public internal(set) var lastBiometricUnlock: Double?
    public internal(set) var prompts: [PromptRecord] = []
    public internal(set) var calls: [CallRecord] = []
    /// Calls that would end the app on a device (LA9: an empty localizedReason).
    public internal(set) var wouldCrashOnDevice: [String] = []

    var items: [Int: StoredSecItem] = [:]
    var primaryKeys: [SecPrimaryKey: Int] = [:]
    var index: [SecIndexKey: Set<Int>] = [:]
    var nextItem = 1
    var keys: [Int: KeyMaterial] = [:]
    var nextKey = 1
    var contexts: [Int: ContextState] = [:]
    var nextContext = 1

    public init(
        app: AppIdentity = AppIdentity(), device: DeviceState = DeviceState(), biometryKind: BiometryKind = .faceID,
        now: Double = 0
    ) {
        self.app = app
        self.device = device
        self.biometryKind = biometryKind
        self.now = now
    }

    /// The number of items stored (dead ones included until deleted).
    public var itemCount: Int { items.count }

    /// A device event (lock, unlock, reboot, passcode removed, enrolment
    /// changed, …). A biometric unlock starts LA5's reuse window.
    public mutating func apply(_ event: DeviceEvent) {
        device.apply(event)
        if event == .unlock && device.biometryUsable { lastBiometricUnlock = now }
        var reason = "\(event.rawValue), no rule decides it"
        if event == .passcodeRemoved {
            // A11 (§9): the …WhenPasscodeSet… items are deleted with the passcode
            // (Apple's secd-81 adds the same item again once a new passcode is set).
            let gone = items.filter { $0.value.protection.requiresPasscode }.map(\.key).sorted()
            for id in gone { remove(id) }
            reason = "\(event.rawValue): \(gone.count) …WhenPasscodeSet… item(s) deleted"
        }
        log("device.\(event.rawValue)", status: 0, event == .passcodeRemoved ? Ruling(.a11, reason) : Ruling(tag: .deviceEvent, reason))
    }

    mutating func log(_ call: String, status: Int32, _ ruling: Ruling, prompts: Int = 0) {
        calls.append(CallRecord(call: call, status: status, ruling: ruling, prompts: prompts, time: now))
    }

    /// What a call answers: the outcome `body` returns, or the one it threw
    /// (a parse failure or a refusal ends the call where it is found).
    static func answer(_ body: () throws(SecOutcome) -> SecOutcome) -> SecOutcome {
        do { return try body() } catch { return error }
    }

    mutating func finish(_ call: SecCall, _ outcome: SecOutcome) -> SecOutcome {
        log(call.rawValue, status: outcome.status.rawValue, outcome.ruling, prompts: outcome.prompts)
        return outcome
    }

    /// Bounds the call and prompt logs: past twice `limit` entries the
    /// oldest go, leaving the newest `limit` (amortized, so a long run pays
    /// no more than a constant per call).
    package mutating func trimLogs(keeping limit: Int) {
        let limit = max(1, limit)
        if calls.count > 2 * limit { calls.removeFirst(calls.count - limit) }
        if prompts.count > 2 * limit { prompts.removeFirst(prompts.count - limit) }
        if wouldCrashOnDevice.count > 2 * limit { wouldCrashOnDevice.removeFirst(wouldCrashOnDevice.count - limit) }
    }

    /// Clears the call and prompt logs (the keychain stays).
    public mutating func clearLogs() {
        calls = []
        prompts = []
        wouldCrashOnDevice = []
    }
}

/// A primary key: the class and its key columns' values (defaults filled in).
struct SecPrimaryKey: Hashable {
    let itemClass: SecItemClass
    let values: [ColumnValueKey]
}

/// The lookup index: class and the class's most-queried attribute.
struct SecIndexKey: Hashable {
    let itemClass: SecItemClass
    let value: ColumnValueKey
}

/// A stored item.
struct StoredSecItem: Sendable {
    var itemClass: SecItemClass
    /// Normalized attributes, the primary key's hidden defaults and `pdmn`, `agrp`, `sync`, dates included.
    var attributes: [String: SecValue]
    var data: [UInt8]?
    /// The access control bound at creation (protection only when none was given).
    var access: AccessControl
    var accessValue: SecAccessControlValue?
    var persistentRef: [UInt8]
    /// The key material of a key item.
    var key: Int?
    let order: Int

    var protection: ProtectionClass { access.protection }
    var accessGroup: String { attributes[SecName.kSecAttrAccessGroup]?.stringValue ?? "" }
    var synchronizable: Bool { attributes[SecName.kSecAttrSynchronizable]?.boolValue ?? false }

    var primaryKey: SecPrimaryKey {
        SecPrimaryKey(
            itemClass: itemClass,
            values: itemClass.primaryKey.map { column in
                (attributes[column] ?? ColumnKind.of(column).hiddenDefault ?? .string("")).columnKey(for: column)
            })
    }

    var indexKey: SecIndexKey {
        let column = itemClass.indexedAttribute
        return SecIndexKey(
            itemClass: itemClass, value: (attributes[column] ?? ColumnKind.of(column).hiddenDefault ?? .string("")).columnKey(for: column))
    }
}

extension KeychainEngine {
    /// Sets the device as the simulation control configures it (events go through ``apply(_:)``).
    public mutating func setDevice(_ state: DeviceState) { device = state }
}
