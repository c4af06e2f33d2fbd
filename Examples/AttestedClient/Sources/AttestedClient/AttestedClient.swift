import DeviceCheck
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// An app's App Attest client, written as Apple's guide "Establishing your
/// app's integrity" says: check support, generate a key, attest it with the
/// server's challenge, keep the key id, then sign each request with an
/// assertion. It talks to a server with the example server's endpoints
/// (`POST /appattest/challenge`, `/appattest/attest`, `/appattest/assert`,
/// JSON with base64 fields) through `URLSession`.
///
/// Recovery, as Apple advises: `serverUnavailable` is retried later with
/// the same key and the same hash; `invalidKey` for a stored key (the app
/// was reinstalled, or the key was never attested) means generating and
/// attesting a new key.
public final class AttestedClient: @unchecked Sendable {
    /// Why the client gave up.
    public enum ClientError: Error, Equatable, CustomStringConvertible {
        /// App Attest is not supported here (an app extension, the Simulator).
        case unsupported
        /// The server answered something else than success.
        case refused(status: Int, body: String)
        /// The server's answer was not what its API says.
        case badAnswer(String)
        /// `serverUnavailable` every time, `attempts` times.
        case appleUnavailable(attempts: Int)

        public var description: String {
            switch self {
            case .unsupported: "App Attest is not supported on this device"
            case .refused(let status, let body): "the server refused: HTTP \(status) \(body)"
            case .badAnswer(let what): "the server's answer is not its API's: \(what)"
            case .appleUnavailable(let attempts): "Apple's service stayed unavailable after \(attempts) attempts"
            }
        }
    }

    let baseURL: URL
    let session: URLSession
    let service = DCAppAttestService.shared
    /// How many times a `serverUnavailable` call is made in all.
    public var attempts = 3
    /// The pause before retrying a `serverUnavailable` call.
    public var retryDelay: Duration = .milliseconds(50)
    private let lock = NSLock()
    private var storedKeyId: String?

    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The attested key's id, once there is one (an app keeps it in its keychain or defaults).
    public var keyId: String? { lock.withLock { storedKeyId } }

    /// Makes and attests a new key: returns the server's `status` (`attested`).
    @discardableResult
    public func attest() async throws -> String {
        guard service.isSupported else { throw ClientError.unsupported }
        let keyId = try await service.generateKey()
        let challenge = try await challenge()
        let hash = Data(SHA256.hash(data: challenge))
        let object = try await retryingUnavailable { try await self.service.attestKey(keyId, clientDataHash: hash) }
        let answer = try await post(
            "appattest/attest",
            ["keyId": keyId, "attestation": object.base64EncodedString(), "challenge": challenge.base64EncodedString()],
            expecting: 201)
        guard let status = answer["status"] else { throw ClientError.badAnswer("no status in \(answer)") }
        if status == "attested" { lock.withLock { storedKeyId = keyId } }
        return status
    }

    /// Sends `payload` signed by an assertion of the attested key (attesting
    /// one first if there is none): the server's counter for the key. A
    /// stored key that answers `invalidKey` is replaced by a new one.
    public func send(_ payload: String) async throws -> String {
        if keyId == nil { try await attest() }
        do {
            return try await assertOnce(payload)
        } catch let error as DCError where error.code == .invalidKey {
            // The key is gone (a reinstall): forget it, attest a new one, send again.
            lock.withLock { storedKeyId = nil }
            try await attest()
            return try await assertOnce(payload)
        }
    }

    private func assertOnce(_ payload: String) async throws -> String {
        guard let keyId else { throw ClientError.badAnswer("no attested key") }
        let challenge = try await challenge()
        let clientData = try JSONSerialization.data(
            withJSONObject: ["challenge": challenge.base64EncodedString(), "payload": payload], options: [.sortedKeys])
        let hash = Data(SHA256.hash(data: clientData))
        let assertion = try await retryingUnavailable { try await self.service.generateAssertion(keyId, clientDataHash: hash) }
        let answer = try await post(
            "appattest/assert",
            ["keyId": keyId, "assertion": assertion.base64EncodedString(), "clientData": clientData.base64EncodedString()],
            expecting: 200)
        guard let counter = answer["counter"] else { throw ClientError.badAnswer("no counter in \(answer)") }
        return counter
    }

    /// Apple's advice for `serverUnavailable`: try again later with the same key and hash.
    private func retryingUnavailable(_ call: () async throws -> Data) async throws -> Data {
        for attempt in 1...max(1, attempts) {
            do {
                return try await call()
            } catch DCError.serverUnavailable {
                if attempt < attempts { try await Task.sleep(for: retryDelay) }
            }
        }
        throw ClientError.appleUnavailable(attempts: attempts)
    }

    private func challenge() async throws -> Data {
        let answer = try await post("appattest/challenge", [:], expecting: 200)
        guard let text = answer["challenge"], let bytes = Data(base64Encoded: text) else {
            throw ClientError.badAnswer("no base64 challenge in \(answer)")
        }
        return bytes
    }

    private func post(_ path: String, _ body: [String: String], expecting status: Int) async throws -> [String: String] {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await session.data(for: request)
        let code = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard code == status else { throw ClientError.refused(status: code, body: String(decoding: data, as: UTF8.self)) }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
            throw ClientError.badAnswer(String(decoding: data, as: UTF8.self))
        }
        return object
    }
}
