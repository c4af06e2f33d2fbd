import Dispatch
import Foundation
internal import AppAttestDevice
internal import SecuritySimulation

/// `DCAppAttestService` (iOS 14): App Attest's client, on the simulation's
/// software device (``SimulationServices/appAttestDevice()``). Keys are
/// P-256 keys whose attestations chain to the device's test roots and whose
/// assertions carry the key's counter, so a server told to trust those
/// roots verifies them as it would a phone's. Refusals are Apple's: an
/// unknown key, a key attested twice or an assertion from an unattested key
/// is `invalidKey`; an empty client data hash is `invalidInput`; a one-shot
/// failure the test queued (``SimulationServices/failNext(_:with:)``) comes
/// first and changes nothing, so `serverUnavailable` can be retried with the
/// same key and hash. Each call is done when the method returns; the
/// completion handler then runs on a global queue.
open class DCAppAttestService: NSObject {
    // Apple declares the service not `Sendable`; it holds no state (the device is the simulation's).
    nonisolated(unsafe) private static let instance = DCAppAttestService()

    /// The app's service.
    open class var shared: DCAppAttestService { instance }

    private override init() { super.init() }

    /// Whether App Attest is available (false in an app extension or the Simulator: ``AppAttestSettings/isSupported``).
    open var isSupported: Bool { Simulation.current.services.appAttest.isSupported }

    /// A new key; its id (base64 SHA-256 of the public key) is what the app keeps.
    open func generateKey() async throws -> String {
        try run(.generateKey, "DCAppAttestService.generateKey") { device in
            let keyId = device.generateKey()
            return (keyId, "generated \(keyId)")
        }
    }

    /// ``generateKey()``; `completionHandler` gets the key id or the error, on a global queue.
    open func generateKey(completionHandler: @escaping (String?, (any Error)?) -> Void) {
        deliver(Result { try run(.generateKey, "DCAppAttestService.generateKey") { ($0.generateKey(), "generated") } }, completionHandler)
    }

    /// Attests the key `keyId` with `clientDataHash` (the server's challenge,
    /// hashed by the app): the attestation object to send to the server.
    open func attestKey(_ keyId: String, clientDataHash: Data) async throws -> Data {
        try attest(keyId, clientDataHash)
    }

    /// ``attestKey(_:clientDataHash:)``; `completionHandler` gets the object or the error, on a global queue.
    open func attestKey(
        _ keyId: String, clientDataHash: Data, completionHandler: @escaping (Data?, (any Error)?) -> Void
    ) {
        deliver(Result { try attest(keyId, clientDataHash) }, completionHandler)
    }

    /// Signs `clientDataHash` with the attested key `keyId`: the assertion object.
    open func generateAssertion(_ keyId: String, clientDataHash: Data) async throws -> Data {
        try assertion(keyId, clientDataHash)
    }

    /// ``generateAssertion(_:clientDataHash:)``; `completionHandler` gets the assertion or the error, on a global queue.
    open func generateAssertion(
        _ keyId: String, clientDataHash: Data, completionHandler: @escaping (Data?, (any Error)?) -> Void
    ) {
        deliver(Result { try assertion(keyId, clientDataHash) }, completionHandler)
    }

    // MARK: Plumbing

    private func attest(_ keyId: String, _ hash: Data) throws -> Data {
        try run(.attestKey, "DCAppAttestService.attestKey") { (device) throws(ClientDevice.Refusal) -> (Data, String) in
            let object = try device.attestKey(keyId, clientDataHash: Array(hash))
            return (Data(object), "attested \(keyId) (\(object.count) bytes)")
        }
    }

    private func assertion(_ keyId: String, _ hash: Data) throws -> Data {
        try run(.generateAssertion, "DCAppAttestService.generateAssertion") { (device) throws(ClientDevice.Refusal) -> (Data, String) in
            let object = try device.generateAssertion(keyId, clientDataHash: Array(hash))
            return (Data(object), "signed with \(keyId)")
        }
    }

    /// Support, then a queued one-shot failure, then the device; every outcome logged.
    private func run<T>(
        _ call: AppAttestCall, _ name: String, _ body: (ClientDevice) throws(ClientDevice.Refusal) -> (T, String)
    ) throws(DCError) -> T {
        try simulated(call, name, supported: { $0.appAttest.isSupported }, body)
    }
}

/// `DCDevice` (iOS 11): DeviceCheck's per-device token, naming the
/// simulation's software device to `trustsuite serve devicecheck` (a new
/// token on every call, the same device behind each).
open class DCDevice: NSObject {
    // As the service: no state of its own.
    nonisolated(unsafe) private static let instance = DCDevice()

    /// This device.
    open class var current: DCDevice { instance }

    private override init() { super.init() }

    /// Whether DeviceCheck is available (``AppAttestSettings/deviceCheckSupported``).
    open var isSupported: Bool { Simulation.current.services.appAttest.deviceCheckSupported }

    /// A new token for the app's server to send to DeviceCheck.
    open func generateToken() async throws -> Data {
        try token()
    }

    /// ``generateToken()``; `completionHandler` gets the token or the error, on a global queue.
    open func generateToken(completionHandler: @escaping (Data?, (any Error)?) -> Void) {
        deliver(Result { try token() }, completionHandler)
    }

    private func token() throws(DCError) -> Data {
        try simulated(.generateToken, "DCDevice.generateToken", supported: { $0.appAttest.deviceCheckSupported }) { device in
            let token = device.deviceCheckToken()
            return (Data(token), "a token of \(token.count) bytes")
        }
    }
}

/// Runs one call on the simulated device: unsupported → featureUnsupported,
/// a queued one-shot failure, else `body`; the outcome goes to the logs.
func simulated<T>(
    _ call: AppAttestCall, _ name: String, supported: (SimulationServices) -> Bool,
    _ body: (ClientDevice) throws(ClientDevice.Refusal) -> (T, String)
) throws(DCError) -> T {
    let services = Simulation.current.services
    func fail(_ failure: DeviceCheckFailure, _ reason: String) -> DCError {
        services.record(AppAttestCallRecord(call: name, code: failure, reason: reason))
        return DCError(
            DCError.Code(rawValue: failure.rawValue) ?? .unknownSystemFailure,
            userInfo: [NSLocalizedDescriptionKey: "\(name): \(reason)"])
    }
    guard supported(services) else {
        throw fail(.featureUnsupported, "App Attest / DeviceCheck is not supported here (the simulation's setting)")
    }
    if let failure = services.takeFailure(call) { throw fail(failure, "a one-shot failure the test queued") }
    let device: ClientDevice
    do {
        device = try services.appAttestDevice()
    } catch {
        throw fail(.unknownSystemFailure, "the software device could not be opened: \(error)")
    }
    do {
        let (value, reason) = try body(device)
        services.record(AppAttestCallRecord(call: name, code: nil, reason: reason))
        return value
    } catch {
        switch error {
        case .invalidKey(let reason): throw fail(.invalidKey, reason)
        case .invalidInput(let reason): throw fail(.invalidInput, reason)
        case .unknownSystemFailure(let reason): throw fail(.unknownSystemFailure, reason)
        }
    }
}

/// Hands a finished call's result to a completion handler on a global queue.
func deliver<T: Sendable>(_ result: Result<T, any Error>, _ handler: @escaping (T?, (any Error)?) -> Void) {
    // Apple's handler is not `Sendable`: it is handed to the queue and called there once.
    nonisolated(unsafe) let handler = handler
    DispatchQueue.global().async {
        switch result {
        case .success(let value): handler(value, nil)
        case .failure(let error): handler(nil, error)
        }
    }
}
