#if canImport(SecuritySimulation)
import AppAttest
import AppAttestDevice
import Crypto
import Dispatch
import Foundation
import SecuritySimulation
import X509

/// The App Attest steps of a replay on Linux: the simulation's one-shot
/// failures, support and reinstall, and the reference verifiers trusting the
/// simulated device's test root.
extension SimulationHooks: AppAttestHooks {
    public func failNext(_ call: String, with code: String) -> Bool {
        guard let target = AppAttestCall(rawValue: call), let failure = DeviceCheckFailure(name: code) else { return false }
        simulation.services.failNext(target, with: failure)
        return true
    }

    public func setSupported(_ supported: Bool) { simulation.services.appAttest.isSupported = supported }

    public func reinstall() { simulation.services.reinstallApp() }

    public func attestationVerifies(_ object: Data, keyId: String, clientDataHash: Data) async -> Bool? {
        guard let device = try? simulation.services.appAttestDevice(),
            let root = try? device.testRoots.attestation,
            let verifier = try? AttestationVerifier(appId: device.appId, environment: device.environment, trustAnchors: [root]),
            let rawKeyId = Data(base64Encoded: keyId)
        else { return nil }
        let outcome = try? await verifier.verify(
            attestationObject: Array(object), keyId: Array(rawKeyId), clientDataHash: Array(clientDataHash), at: Date())
        guard let verified = outcome else { return false }
        attested[keyId] = (verified.publicKey, verified.counter)
        return true
    }

    public func assertionVerifies(_ assertion: Data, keyId: String, clientDataHash: Data) -> (verified: Bool, counter: Int)? {
        guard let device = try? simulation.services.appAttestDevice(), let parsed = try? Assertion(bytes: Array(assertion)) else {
            return nil
        }
        let counter = Int(parsed.authenticatorData.signCount)
        guard let stored = attested[keyId], let publicKey = ES256.publicKey(stored.publicKey) else { return (false, counter) }
        // The assertion steps with the hash the app gave: nonce = SHA-256(authenticatorData ‖ clientDataHash).
        var hasher = SHA256()
        hasher.update(data: parsed.authenticatorData.bytes)
        hasher.update(data: Array(clientDataHash))
        let nonce = Array(hasher.finalize())
        let verified =
            ES256.verify(derSignature: parsed.signature, message: nonce, publicKey: publicKey)
            && parsed.authenticatorData.rpIdHash == Array(SHA256.hash(data: Array(device.appId.utf8)))
            && parsed.authenticatorData.signCount > stored.counter
        if verified { attested[keyId] = (stored.publicKey, parsed.authenticatorData.signCount) }
        return (verified, counter)
    }
}
#endif
