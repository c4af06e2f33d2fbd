import VectorContract
import KeychainAccessControl
import TrustSuiteSupport

/// The shapes of docs/vectors.md the keychain and LA families share, read
/// from the typed contract, for the reference subjects and the CLI.
public enum KeychainJSON {
    /// `device`: absent fields take an unlocked phone with a passcode and enrolled biometry.
    static func device(_ shape: DeviceShape?) throws(ReferenceInputError) -> DeviceState {
        var device = DeviceState()
        guard let shape else { return device }
        if let value = shape.locked { device.locked = value }
        if let value = shape.unlockedSinceBoot { device.unlockedSinceBoot = value }
        if let value = shape.passcodeSet { device.passcodeSet = value }
        if let value = shape.companion { device.companion = value }
        if let value = shape.biometry { device.biometry = try model(value) }
        return device
    }

    /// A `device` object given as JSON (the CLI's `--device`), read strictly.
    public static func device(_ value: JSONValue?) throws(ReferenceInputError) -> DeviceState {
        guard let value else { return DeviceState() }
        return try device(read(DeviceShape.self, value, "device"))
    }

    /// A list of event names given as JSON (the CLI's `--events`).
    public static func events(_ value: JSONValue?) throws(ReferenceInputError) -> [DeviceEvent] {
        guard let value else { return [] }
        return try read([DeviceEventName].self, value, "events").map { name throws(ReferenceInputError) in try model(name) }
    }

    /// A list of names given as JSON (the CLI's `--evidence`).
    public static func strings(_ value: JSONValue?, _ name: String) throws(ReferenceInputError) -> [String] {
        guard let value else { return [] }
        return try read([String].self, value, name)
    }

    static func read<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ name: String) throws(ReferenceInputError) -> T {
        do {
            return try StrictJSONDecoder.decode(type, from: value)
        } catch {
            throw ReferenceInputError(error.path.isEmpty ? "\(name) \(error.reason)" : "\(name).\(error.description)")
        }
    }

    public static func protection(_ name: String?) throws(ReferenceInputError) -> ProtectionClass {
        guard let name else { return .ak }
        guard let protection = ProtectionClass(name: name) else {
            throw ReferenceInputError(
                "unknown protection \"\(name)\"; valid: "
                    + ProtectionClass.allCases.map { "\($0.rawValue) (\($0.longName))" }.joined(separator: ", "))
        }
        return protection
    }

    /// Access-control flags and evidence by name (docs/models/keychain-acl.md).
    static func flags(_ names: [String]?) throws(ReferenceInputError) -> AccessControlFlags {
        do {
            return try AccessControlFlags.parse(names ?? [])
        } catch {
            throw ReferenceInputError(error.reason)
        }
    }
}

/// The `keychain-acl` family against ``KeychainAccessControl``.
enum KeychainACLSubject {
    static func evaluate(_ input: KeychainACLFamily.Input) throws -> SubjectAnswer {
        let protection = try KeychainJSON.protection(input.protection)
        let flags = try KeychainJSON.flags(input.flags)
        let evidence: Evidence
        do {
            evidence = try Evidence.parse(input.evidence ?? [])
        } catch {
            throw ReferenceInputError(error.reason)
        }
        var device = try KeychainJSON.device(input.device)
        let events: [DeviceEvent] = try (input.events ?? []).map { name throws(ReferenceInputError) in try model(name) }
        let operation: KeychainOperation = try model(input.operation)
        let access: AccessControl
        do {
            access = try AccessControl.create(
                protection: protection, flags: flags,
                synchronizable: input.synchronizable ?? false, device: device)
        } catch {
            return refused(error)
        }
        for event in events { device.apply(event) }
        switch access.perform(operation, device: device, evidence: evidence) {
        case .failure(let error):
            return refused(error)
        case .success:
            var output: [String: JSONValue] = [:]
            if case .requires(let tree) = access.rule(for: operation) { output["requires"] = .string(tree.description) }
            return SubjectAnswer(.valid, output: .object(output))
        }
    }

    /// A refusal: its code graded, its rule and reason shown.
    static func refused(_ error: KeychainError) -> SubjectAnswer {
        var answer = SubjectAnswer(.invalid, error: error.code.rawValue)
        answer.explanation = error.explanation
        return answer
    }
}
