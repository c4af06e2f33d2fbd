import ConformanceKit
import KeychainAccessControl

/// JSON shapes of spec/vectors.md for the keychain and LA families, shared
/// by the reference subjects and the CLI.
public enum KeychainJSON {
    /// `device`: absent fields take an unlocked phone with a passcode and enrolled biometry.
    public static func device(_ value: JSONValue?) throws -> DeviceState {
        guard let value else { return DeviceState() }
        guard let object = value.objectValue else { throw ReferenceInputError("device must be a JSON object") }
        let known: Set<String> = ["locked", "unlockedSinceBoot", "passcodeSet", "biometry", "companion"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw ReferenceInputError("device has unknown field \"\(unknown)\"; valid: \(known.sorted().joined(separator: ", "))")
        }
        var device = DeviceState()
        func flag(_ key: String) throws -> Bool? {
            guard let item = object[key] else { return nil }
            guard let b = item.boolValue else { throw ReferenceInputError("device.\(key) must be true or false") }
            return b
        }
        if let v = try flag("locked") { device.locked = v }
        if let v = try flag("unlockedSinceBoot") { device.unlockedSinceBoot = v }
        if let v = try flag("passcodeSet") { device.passcodeSet = v }
        if let v = try flag("companion") { device.companion = v }
        if let item = object["biometry"] {
            guard let name = item.stringValue, let biometry = DeviceState.Biometry(rawValue: name) else {
                throw ReferenceInputError("device.biometry must be one of "
                                          + DeviceState.Biometry.allCases.map(\.rawValue).joined(separator: ", "))
            }
            device.biometry = biometry
        }
        return device
    }

    public static func strings(_ value: JSONValue?, _ name: String) throws -> [String] {
        guard let value else { return [] }
        guard let list = value.arrayValue else { throw ReferenceInputError("\(name) must be a list of names") }
        return try list.map { item in
            guard let s = item.stringValue else { throw ReferenceInputError("\(name) must be a list of names") }
            return s
        }
    }

    public static func events(_ value: JSONValue?) throws -> [DeviceEvent] {
        try strings(value, "events").map { name in
            guard let event = DeviceEvent(rawValue: name) else {
                throw ReferenceInputError("unknown event \"\(name)\"; valid: " + DeviceEvent.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return event
        }
    }

    public static func protection(_ value: JSONValue?) throws -> ProtectionClass {
        guard let name = value?.stringValue else { return .ak }
        guard let protection = ProtectionClass(name: name) else {
            throw ReferenceInputError("unknown protection \"\(name)\"; valid: "
                                      + ProtectionClass.allCases.map { "\($0.rawValue) (\($0.longName))" }.joined(separator: ", "))
        }
        return protection
    }

    public static func operation(_ value: JSONValue?) throws -> KeychainOperation {
        guard let name = value?.stringValue, let operation = KeychainOperation(rawValue: name) else {
            throw ReferenceInputError("operation must be one of " + KeychainOperation.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return operation
    }
}

/// The `keychain-acl` family against ``KeychainAccessControl``.
enum KeychainACLSubject {
    static func evaluate(_ input: JSONValue) throws -> SubjectAnswer {
        let protection = try KeychainJSON.protection(input["protection"])
        let flagNames = try KeychainJSON.strings(input["flags"], "flags")
        let evidenceNames = try KeychainJSON.strings(input["evidence"], "evidence")
        let flags: AccessControlFlags
        let evidence: Evidence
        do {
            flags = try AccessControlFlags.parse(flagNames)
            evidence = try Evidence.parse(evidenceNames)
        } catch {
            throw ReferenceInputError(error.reason)
        }
        var device = try KeychainJSON.device(input["device"])
        let events = try KeychainJSON.events(input["events"])
        let operation = try KeychainJSON.operation(input["operation"])
        let access: AccessControl
        do {
            access = try AccessControl.create(protection: protection, flags: flags,
                                              synchronizable: input["synchronizable"]?.boolValue ?? false, device: device)
        } catch {
            return SubjectAnswer(.invalid, error: error.code.rawValue)
        }
        for event in events { device.apply(event) }
        switch access.perform(operation, device: device, evidence: evidence) {
        case .failure(let error):
            return SubjectAnswer(.invalid, error: error.code.rawValue)
        case .success:
            var output: [String: JSONValue] = [:]
            if case .requires(let tree) = access.rule(for: operation) { output["requires"] = .string(tree.description) }
            return SubjectAnswer(.valid, output: .object(output))
        }
    }
}
