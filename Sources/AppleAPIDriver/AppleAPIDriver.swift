import Dispatch
import Foundation
import LocalAuthentication
import Security

/// What Apple's API cannot do and a replay needs: configure the device and
/// the app, move the clock, queue the user's answers, count prompts. On
/// Linux the simulation control provides it (``SimulationHooks``); where
/// Apple's frameworks run the driver there is none, and those steps fail.
public protocol AppleAPIHooks: AnyObject {
    /// A clean keychain, app and device as the vector's `app` and `device` say; an error text, or nil.
    func reset(app: [String: Any]?, device: [String: Any]?) -> String?
    /// Prompts raised so far, or nil when they cannot be counted.
    func promptCount() -> Int?
    /// A device event (`lock`, `unlock`, …); false when unknown.
    func deviceEvent(_ name: String) -> Bool
    /// Queues the user's next answers; false when one is unknown.
    func queueAnswers(_ names: [String]) -> Bool
    /// Moves the clock forward.
    func advanceClock(by seconds: Double)
}

/// The `apple-api` trace driver: replays a vector's steps through Apple's
/// own API (`import Security`, `import LocalAuthentication`, `import DeviceCheck`) and answers
/// each step's status, prompts and result. It is written against Apple's
/// API only: on Linux it runs against this project's modules; built where
/// Apple's frameworks exist, the same source drives Apple's keychain (that
/// run is not verified on this project's machines).
public final class AppleAPIDriver {
    let hooks: (any AppleAPIHooks)?
    var contexts: [String: LAContext] = [:]
    var accessControls: [String: SecAccessControl] = [:]
    var keys: [String: SecKey] = [:]
    var datas: [String: Data] = [:]
    /// Each step's data result, by step index (`{"persistentRef": N}` names one).
    var stepData: [Int: Data] = [:]
    /// LARights and LAPersistedRights by label; App Attest key ids by label.
    var rights: [String: LARight] = [:]
    var keyIds: [String: String] = [:]

    public init(hooks: (any AppleAPIHooks)?) { self.hooks = hooks }

    /// Why a step could not be replayed (a malformed input, not a status).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Replays `input` (`{"app"?, "device"?, "steps": [...]}`) and returns `{"steps": [answers]}`.
    public func replay(_ input: [String: Any]) async throws -> [String: Any] {
        contexts = [:]
        accessControls = [:]
        keys = [:]
        datas = [:]
        stepData = [:]
        rights = [:]
        keyIds = [:]
        if let hooks, let problem = hooks.reset(app: input["app"] as? [String: Any], device: input["device"] as? [String: Any]) {
            throw Failure(description: problem)
        }
        guard let steps = input["steps"] as? [[String: Any]] else { throw Failure(description: "input has no steps") }
        var answers: [[String: Any]] = []
        for (index, step) in steps.enumerated() {
            let before = hooks?.promptCount()
            var answer = try await perform(step, index: index)
            if let before, let after = hooks?.promptCount() { answer["prompts"] = after - before }
            answers.append(answer)
        }
        // Objects made by the replay go before the next vector's reset.
        contexts = [:]
        keys = [:]
        rights = [:]
        return ["steps": answers]
    }

    // MARK: Values

    /// A vector value as Apple's API takes it: a string, number or boolean as
    /// written; `{"data"}`, `{"constant"}`, `{"context"}`, `{"accessControl"}`,
    /// `{"key"}`, `{"persistentRef": step}`; a nested dictionary by constant names.
    func value(_ json: Any) throws -> Any {
        if let text = json as? String { return text as NSString }
        if let number = json as? NSNumber { return number }
        if let object = json as? [String: Any] {
            if let text = object["data"] as? String {
                guard let bytes = Data(base64Encoded: text) else { throw Failure(description: "bad base64 \(text)") }
                return bytes as NSData
            }
            if let name = object["constant"] as? String {
                guard let constant = AppleConstants.byName[name] else { throw Failure(description: "unknown constant \(name)") }
                return constant
            }
            if let label = object["context"] as? String, let context = contexts[label] { return context }
            if let label = object["accessControl"] as? String, let control = accessControls[label] { return control }
            if let label = object["key"] as? String, let key = keys[label] { return key }
            if let step = object["persistentRef"] as? Int, let data = stepData[step] { return data as NSData }
            return try dictionary(object)
        }
        throw Failure(description: "a value of an unknown form: \(json)")
    }

    /// A dictionary keyed by constant names, as a `CFDictionary`.
    func dictionary(_ json: [String: Any]) throws -> CFDictionary {
        let result = NSMutableDictionary()
        for (name, raw) in json {
            guard let key = AppleConstants.byName[name] else { throw Failure(description: "unknown constant \(name)") }
            result[key] = try value(raw)
        }
        return result
    }

    /// How an answer reports one value of a result.
    static func report(_ value: Any) -> Any? {
        if let data = value as? Data { return ["data": data.base64EncodedString()] }
        if let date = value as? Date { return ["date": date.timeIntervalSinceReferenceDate] }
        if let number = value as? NSNumber {
            if CFGetTypeID(number) == CFBooleanGetTypeID() { return number.boolValue }
            return number
        }
        if let text = value as? String { return text }
        if value is SecAccessControl { return ["accessControl": true] }
        return nil
    }

    /// The result's shape and content: `none`, `data`, `dictionary`, `array`, `key`.
    static func describe(_ result: AnyObject?, into answer: inout [String: Any]) {
        guard let result else { return answer["result"] = "none" }
        if let data = result as? Data {
            answer["result"] = "data"
            answer["data"] = data.base64EncodedString()
            answer["length"] = data.count
        } else if let dictionary = result as? [String: Any] {
            answer["result"] = "dictionary"
            answer["attributes"] = attributes(dictionary)
        } else if let array = result as? [Any] {
            answer["result"] = "array"
            answer["count"] = array.count
            if let first = array.first as? [String: Any] { answer["attributes"] = attributes(first) }
        } else if result is SecKey {
            answer["result"] = "key"
        } else {
            answer["result"] = "object"
        }
    }

    static func attributes(_ dictionary: [String: Any]) -> [String: Any] {
        var out: [String: Any] = [:]
        for (key, value) in dictionary {
            guard let reported = report(value) else { continue }
            out[AppleConstants.byValue[key] ?? key] = reported
        }
        return out
    }

    static func status(_ status: OSStatus) -> [String: Any] { ["status": Int(status), "prompts": 0, "result": "none"] }

    /// An answer from a failed call's error (`CFError` or `LAError`).
    static func failure(_ error: any Error) -> [String: Any] {
        let ns = error as NSError
        return ["status": ns.code, "prompts": 0, "result": "none", "errorDomain": ns.domain]
    }

    func string(_ step: [String: Any], _ field: String) throws -> String {
        guard let text = step[field] as? String else { throw Failure(description: "the step needs \"\(field)\"") }
        return text
    }

    func context(_ step: [String: Any]) throws -> LAContext {
        let label = try string(step, "context")
        guard let context = contexts[label] else { throw Failure(description: "no context \(label)") }
        return context
    }

    func key(_ step: [String: Any], _ field: String = "key") throws -> SecKey {
        let label = try string(step, field)
        guard let key = keys[label] else { throw Failure(description: "no key \(label)") }
        return key
    }

    static let policies: [String: LAPolicy] = [
        "deviceOwnerAuthenticationWithBiometrics": .deviceOwnerAuthenticationWithBiometrics,
        "deviceOwnerAuthentication": .deviceOwnerAuthentication,
        "deviceOwnerAuthenticationWithCompanion": .deviceOwnerAuthenticationWithCompanion,
        "deviceOwnerAuthenticationWithBiometricsOrCompanion": .deviceOwnerAuthenticationWithBiometricsOrCompanion,
    ]

    static let operations: [String: LAAccessControlOperation] = [
        "createItem": .createItem, "useItem": .useItem, "createKey": .createKey, "useKeySign": .useKeySign,
        "useKeyDecrypt": .useKeyDecrypt, "useKeyKeyExchange": .useKeyKeyExchange,
    ]

    static let flagNames: [String: SecAccessControlCreateFlags] = [
        "userPresence": .userPresence, "biometryAny": .biometryAny, "biometryCurrentSet": .biometryCurrentSet,
        "devicePasscode": .devicePasscode, "companion": .companion, "or": .or, "and": .and, "privateKeyUsage": .privateKeyUsage,
        "applicationPassword": .applicationPassword,
    ]

    func policy(_ step: [String: Any]) throws -> LAPolicy {
        let name = try string(step, "policy")
        guard let policy = Self.policies[name] else { throw Failure(description: "unknown policy \(name)") }
        return policy
    }

    /// An evaluation through LocalAuthentication's async API: true, or false
    /// and the error it threw (no thread waits for a completion handler).
    static func evaluation(_ evaluate: () async throws -> Bool) async -> (Bool, NSError?) {
        do {
            return (try await evaluate(), nil)
        } catch {
            return (false, error as NSError)
        }
    }

    static func laAnswer(_ reply: (Bool, NSError?)) -> [String: Any] {
        var answer: [String: Any] = ["status": reply.1?.code ?? 0, "prompts": 0, "result": reply.0 ? "true" : "false"]
        if let error = reply.1 { answer["errorDomain"] = error.domain }
        return answer
    }

    // MARK: Steps

    func perform(_ step: [String: Any], index: Int) async throws -> [String: Any] {
        let call = try string(step, "call")
        switch call {
        case "SecItemAdd", "SecItemCopyMatching":
            let field = call == "SecItemAdd" ? "attributes" : "query"
            guard let json = step[field] as? [String: Any] else { throw Failure(description: "\(call) needs \"\(field)\"") }
            let dictionary = try dictionary(json)
            let wantsResult = (step["result"] as? Bool) ?? (call == "SecItemCopyMatching")
            var result: CFTypeRef?
            let status =
                wantsResult
                ? (call == "SecItemAdd" ? SecItemAdd(dictionary, &result) : SecItemCopyMatching(dictionary, &result))
                : (call == "SecItemAdd" ? SecItemAdd(dictionary, nil) : SecItemCopyMatching(dictionary, nil))
            var answer = Self.status(status)
            Self.describe(result, into: &answer)
            if let data = result as? Data { stepData[index] = data }
            return answer
        case "SecItemUpdate":
            guard let query = step["query"] as? [String: Any], let changes = step["attributesToUpdate"] as? [String: Any] else {
                throw Failure(description: "SecItemUpdate needs \"query\" and \"attributesToUpdate\"")
            }
            return Self.status(SecItemUpdate(try dictionary(query), try dictionary(changes)))
        case "SecItemDelete":
            guard let query = step["query"] as? [String: Any] else { throw Failure(description: "SecItemDelete needs \"query\"") }
            return Self.status(SecItemDelete(try dictionary(query)))
        case "SecAccessControlCreateWithFlags":
            let protection = try value(step["protection"] ?? "")
            var flags: SecAccessControlCreateFlags = []
            for name in (step["flags"] as? [String]) ?? [] {
                guard let flag = Self.flagNames[name] else { throw Failure(description: "unknown flag \(name)") }
                flags.insert(flag)
            }
            var error: Unmanaged<CFError>?
            guard let control = SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection as CFTypeRef, flags, &error) else {
                return error.map { Self.failure($0.takeRetainedValue() as any Error) } ?? Self.status(errSecParam)
            }
            accessControls[try string(step, "as")] = control
            return ["status": 0, "prompts": 0, "result": "accessControl"]
        case "SecKeyCreateRandomKey":
            guard let json = step["attributes"] as? [String: Any] else {
                throw Failure(description: "SecKeyCreateRandomKey needs \"attributes\"")
            }
            var error: Unmanaged<CFError>?
            guard let key = SecKeyCreateRandomKey(try dictionary(json), &error) else {
                return error.map { Self.failure($0.takeRetainedValue() as any Error) } ?? Self.status(errSecParam)
            }
            keys[try string(step, "as")] = key
            return ["status": 0, "prompts": 0, "result": "key"]
        case "SecKeyCopyPublicKey":
            guard let publicKey = SecKeyCopyPublicKey(try key(step)) else { return Self.status(errSecParam) }
            keys[try string(step, "as")] = publicKey
            return ["status": 0, "prompts": 0, "result": "key"]
        case "SecKeyCreateSignature":
            let data = try value(step["data"] ?? [:])
            guard let bytes = data as? Data else { throw Failure(description: "SecKeyCreateSignature needs data") }
            var error: Unmanaged<CFError>?
            guard let signature = SecKeyCreateSignature(try key(step), .ecdsaSignatureMessageX962SHA256, bytes as CFData, &error) else {
                return error.map { Self.failure($0.takeRetainedValue() as any Error) } ?? Self.status(errSecParam)
            }
            if let label = step["as"] as? String { datas[label] = signature as Data }
            return ["status": 0, "prompts": 0, "result": "data"]
        case "SecKeyVerifySignature":
            guard let bytes = try value(step["data"] ?? [:]) as? Data else {
                throw Failure(description: "SecKeyVerifySignature needs data")
            }
            let label = try string(step, "signature")
            guard let signature = datas[label] else { throw Failure(description: "no signature \(label)") }
            var error: Unmanaged<CFError>?
            let valid = SecKeyVerifySignature(try key(step), .ecdsaSignatureMessageX962SHA256, bytes as CFData, signature as CFData, &error)
            var answer: [String: Any] = error.map { Self.failure($0.takeRetainedValue() as any Error) } ?? Self.status(errSecSuccess)
            answer["result"] = valid ? "true" : "false"
            return answer
        case "SecKeyCopyExternalRepresentation":
            var error: Unmanaged<CFError>?
            guard let data = SecKeyCopyExternalRepresentation(try key(step), &error) else {
                return error.map { Self.failure($0.takeRetainedValue() as any Error) } ?? Self.status(errSecParam)
            }
            return ["status": 0, "prompts": 0, "result": "data", "length": (data as Data).count]
        case "LAContext":
            contexts[try string(step, "as")] = LAContext()
            return Self.status(errSecSuccess)
        case "LAContext.canEvaluatePolicy":
            var error: NSError?
            let can = try context(step).canEvaluatePolicy(try policy(step), error: &error)
            return Self.laAnswer((can, error))
        case "LAContext.evaluatePolicy":
            let context = try context(step)
            let policy = try policy(step)
            let reason = (step["localizedReason"] as? String) ?? ""
            return Self.laAnswer(await Self.evaluation { try await context.evaluatePolicy(policy, localizedReason: reason) })
        case "LAContext.evaluateAccessControl":
            let context = try context(step)
            let label = try string(step, "accessControl")
            guard let control = accessControls[label] else { throw Failure(description: "no access control \(label)") }
            let name = try string(step, "operation")
            guard let operation = Self.operations[name] else { throw Failure(description: "unknown operation \(name)") }
            let reason = (step["localizedReason"] as? String) ?? ""
            return Self.laAnswer(
                await Self.evaluation {
                    try await context.evaluateAccessControl(control, operation: operation, localizedReason: reason)
                })
        case "LAContext.invalidate":
            try context(step).invalidate()
            return Self.status(errSecSuccess)
        case "LAContext.set":
            let context = try context(step)
            if let flag = step["interactionNotAllowed"] as? Bool { context.interactionNotAllowed = flag }
            if let seconds = step["touchIDAuthenticationAllowableReuseDuration"] as? Double {
                context.touchIDAuthenticationAllowableReuseDuration = seconds
            }
            return Self.status(errSecSuccess)
        case "LAContext.evaluatedPolicyDomainState":
            let state = try context(step).evaluatedPolicyDomainState
            var answer = Self.status(errSecSuccess)
            answer["result"] = state == nil ? "none" : "data"
            if let label = step["as"] as? String, let state { datas[label] = state }
            if let other = step["compare"] as? String { answer["same"] = state != nil && state == datas[other] }
            return answer
        case "device", "user", "clock":
            guard let hooks else { throw Failure(description: "\(call) steps need the simulation (not available on a device)") }
            if call == "device" {
                let name = try string(step, "event")
                guard hooks.deviceEvent(name) else { throw Failure(description: "unknown device event \(name)") }
            } else if call == "user" {
                guard hooks.queueAnswers((step["answers"] as? [String]) ?? []) else { throw Failure(description: "unknown answer") }
            } else {
                hooks.advanceClock(by: (step["advance"] as? Double) ?? 0)
            }
            return Self.status(errSecSuccess)
        default:
            if let answer = try await performRightOrAttest(step, call: call) { return answer }
            throw Failure(description: "unknown call \(call)")
        }
    }
}
