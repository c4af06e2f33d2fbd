import DeviceCheck
import Dispatch
import Foundation
import LocalAuthentication
import Security

/// What a replay of App Attest steps needs beyond Apple's API: one-shot
/// failures, support, a reinstall, and a verifier that trusts the device's
/// roots. On Linux the simulation provides it (``SimulationHooks``); on a
/// device there is none and those steps fail.
public protocol AppAttestHooks: AnyObject {
    /// Queues a one-shot failure (`serverUnavailable`…) for `call` (`attestKey`…); false when a name is unknown.
    func failNext(_ call: String, with code: String) -> Bool
    /// Sets whether App Attest is supported.
    func setSupported(_ supported: Bool)
    /// The app is deleted and installed again.
    func reinstall()
    /// Whether `object` verifies for `keyId` and `clientDataHash` against the device's root; nil: cannot tell.
    func attestationVerifies(_ object: Data, keyId: String, clientDataHash: Data) async -> Bool?
    /// Whether `assertion` verifies with the key attested as `keyId`, and its counter; nil: cannot tell.
    func assertionVerifies(_ assertion: Data, keyId: String, clientDataHash: Data) -> (verified: Bool, counter: Int)?
}

extension AppleAPIDriver {
    /// A completion handler's reply, awaited: no thread waits for it (the
    /// handler runs on another queue or task; a blocked pool thread could
    /// starve the task that runs it on a 2-core machine).
    static func waitFor<T>(_ start: (@escaping (T?, (any Error)?) -> Void) -> Void) async -> (T?, NSError?) {
        // Apple's handlers and rights are not `Sendable`: the handler runs
        // once and writes its reply before resuming, which orders the read below.
        nonisolated(unsafe) var reply: (T?, NSError?) = (nil, nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start { value, error in
                reply = (value, error.map { $0 as NSError })
                continuation.resume()
            }
        }
        return reply
    }

    /// Awaits a handler that reports only an error.
    static func waitFor(_ start: (@escaping ((any Error)?) -> Void) -> Void) async -> NSError? {
        await waitFor { (reply: @escaping (Bool?, (any Error)?) -> Void) in start { reply(nil, $0) } }.1
    }

    static func answer(_ error: NSError?, result: String = "none") -> [String: Any] {
        guard let error else { return ["status": 0, "prompts": 0, "result": result] }
        return ["status": error.code, "prompts": 0, "result": "none", "errorDomain": error.domain]
    }

    static func stateName(_ state: LARight.State) -> String {
        switch state {
        case .unknown: "unknown"
        case .authorizing: "authorizing"
        case .authorized: "authorized"
        case .notAuthorized: "notAuthorized"
        @unknown default: "unknown"
        }
    }

    static var requirements: [String: LAAuthenticationRequirement] {
        [
            "default": .default, "biometry": .biometry, "biometryCurrentSet": .biometryCurrentSet,
            "biometry(fallback: default)": .biometry(fallback: .default),
            "biometry(fallback: devicePasscode)": .biometry(fallback: .devicePasscode),
        ]
    }

    func right(_ step: [String: Any]) throws -> LARight {
        let label = try string(step, "right")
        guard let right = rights[label] else { throw Failure(description: "no right \(label)") }
        return right
    }

    func persistedRight(_ step: [String: Any]) throws -> LAPersistedRight {
        guard let right = try right(step) as? LAPersistedRight else {
            throw Failure(description: "\(step["right"] ?? "") is not a persisted right")
        }
        return right
    }

    func bytes(_ step: [String: Any], _ field: String) throws -> Data {
        guard let data = try value(step[field] ?? [:]) as? Data else { throw Failure(description: "the step needs \"\(field)\" data") }
        return data
    }

    func keyId(_ step: [String: Any]) throws -> String {
        let label = try string(step, "key")
        guard let keyId = keyIds[label] else { throw Failure(description: "no App Attest key \(label)") }
        return keyId
    }

    /// The LARight, LARightStore, DCAppAttestService, DCDevice and `appAttest` steps; nil for another call.
    func performRightOrAttest(_ step: [String: Any], call: String) async throws -> [String: Any]? {
        switch call {
        case "LARight":
            let name = (step["requirement"] as? String) ?? "default"
            guard let requirement = Self.requirements[name] else { throw Failure(description: "unknown requirement \(name)") }
            let right = LARight(requirement: requirement)
            rights[try string(step, "as")] = right
            var answer = Self.answer(nil)
            answer["state"] = Self.stateName(right.state)
            return answer
        case "LARight.authorize", "LARight.checkCanAuthorize", "LARight.deauthorize":
            let right = try right(step)
            let reason = (step["localizedReason"] as? String) ?? ""
            let error: NSError?
            switch call {
            case "LARight.authorize": error = await Self.waitFor { right.authorize(localizedReason: reason, completion: $0) }
            case "LARight.checkCanAuthorize": error = await Self.waitFor { right.checkCanAuthorize(completion: $0) }
            default:
                error = await Self.waitFor { done in right.deauthorize { done(nil) } }
            }
            var answer = Self.answer(error)
            answer["state"] = Self.stateName(right.state)
            return answer
        case "LARightStore.saveRight", "LARightStore.right":
            let identifier = try string(step, "identifier")
            let store = LARightStore.shared
            let reply: (LAPersistedRight?, NSError?)
            if call == "LARightStore.right" {
                reply = await Self.waitFor { store.right(forIdentifier: identifier, completion: $0) }
            } else {
                let right = try right(step)
                if step["secret"] != nil {
                    let secret = try bytes(step, "secret")
                    reply = await Self.waitFor { store.saveRight(right, identifier: identifier, secret: secret, completion: $0) }
                } else {
                    reply = await Self.waitFor { store.saveRight(right, identifier: identifier, completion: $0) }
                }
            }
            var answer = Self.answer(reply.1)
            if let persisted = reply.0 {
                rights[try string(step, "as")] = persisted
                answer["state"] = Self.stateName(persisted.state)
            }
            return answer
        case "LARightStore.removeRight":
            let store = LARightStore.shared
            if step["right"] != nil {
                let right = try persistedRight(step)
                return Self.answer(await Self.waitFor { store.removeRight(right, completion: $0) })
            }
            let identifier = try string(step, "identifier")
            return Self.answer(await Self.waitFor { store.removeRight(forIdentifier: identifier, completion: $0) })
        case "LARightStore.removeAllRights":
            return Self.answer(await Self.waitFor { LARightStore.shared.removeAllRights(completion: $0) })
        case "LAPrivateKey.sign":
            let key = try persistedRight(step).key
            let data = try bytes(step, "data")
            let reply = await Self.waitFor { key.sign(data, algorithm: .ecdsaSignatureMessageX962SHA256, completion: $0) }
            if let signature = reply.0, let label = step["as"] as? String { datas[label] = signature }
            return Self.answer(reply.1, result: "data")
        case "LAPublicKey.verify":
            let key = try persistedRight(step).key.publicKey
            let data = try bytes(step, "data")
            let label = try string(step, "signature")
            let signature = datas[label] ?? Data()
            let error = await Self.waitFor {
                key.verify(data, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256, completion: $0)
            }
            var answer = Self.answer(error, result: "true")
            if error != nil { answer["result"] = "false" }
            return answer
        case "LAPublicKey.exportBytes":
            let key = try persistedRight(step).key.publicKey
            let reply = await Self.waitFor { key.exportBytes(completion: $0) }
            var answer = Self.answer(reply.1, result: "data")
            if let bytes = reply.0 { answer["length"] = bytes.count }
            return answer
        case "LASecret.loadData":
            let secret = try persistedRight(step).secret
            let reply = await Self.waitFor { secret.loadData(completion: $0) }
            var answer = Self.answer(reply.1, result: "data")
            if let bytes = reply.0 { answer["data"] = bytes.base64EncodedString() }
            return answer
        case "DCAppAttestService.generateKey":
            let reply = await Self.waitFor { DCAppAttestService.shared.generateKey(completionHandler: $0) }
            if let keyId = reply.0 { keyIds[try string(step, "as")] = keyId }
            return Self.answer(reply.1, result: "key")
        case "DCAppAttestService.attestKey", "DCAppAttestService.generateAssertion":
            let keyId = try keyId(step)
            let hash = try bytes(step, "clientDataHash")
            let service = DCAppAttestService.shared
            let reply =
                call == "DCAppAttestService.attestKey"
                ? await Self.waitFor { service.attestKey(keyId, clientDataHash: hash, completionHandler: $0) }
                : await Self.waitFor { service.generateAssertion(keyId, clientDataHash: hash, completionHandler: $0) }
            var answer = Self.answer(reply.1, result: "data")
            if let object = reply.0, let hooks = hooks as? any AppAttestHooks {
                if call == "DCAppAttestService.attestKey" {
                    if let verified = await hooks.attestationVerifies(object, keyId: keyId, clientDataHash: hash) {
                        answer["verified"] = verified
                    }
                } else if let checked = hooks.assertionVerifies(object, keyId: keyId, clientDataHash: hash) {
                    answer["verified"] = checked.verified
                    answer["counter"] = checked.counter
                }
            }
            return answer
        case "DCDevice.generateToken":
            let reply = await Self.waitFor { DCDevice.current.generateToken(completionHandler: $0) }
            return Self.answer(reply.1, result: "data")
        case "appAttest":
            guard let hooks = hooks as? any AppAttestHooks else {
                throw Failure(description: "appAttest steps need the simulation (not available on a device)")
            }
            if let code = step["fail"] as? String {
                let target = try string(step, "failCall")
                guard hooks.failNext(target, with: code) else { throw Failure(description: "unknown failure \(target):\(code)") }
            }
            if let supported = step["supported"] as? Bool { hooks.setSupported(supported) }
            if step["reinstall"] as? Bool == true { hooks.reinstall() }
            return Self.answer(nil)
        default:
            return nil
        }
    }
}
