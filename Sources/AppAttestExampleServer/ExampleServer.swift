import AppAttest
import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceGuards
import ServiceLifecycle
import TrustSuiteSupport
import UnixSignals
import X509

/// Why the server cannot start (bad state file, no anchor).
public struct ExampleServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An App Attest server done right, on Hummingbird 2, verifying with the
/// `AppAttest` library: what a server team can copy, and what
/// `trustsuite probe appattest` passes every check against
/// (docs/probe.md). Three endpoints, the shapes of docs/probe.md's example
/// config:
///
/// - `POST /appattest/challenge` → `{"challenge": base64}`: 32 random
///   bytes, single-use, valid for ``Configuration/challengeLifetime``.
/// - `POST /appattest/attest` `{"keyId", "attestation", "challenge"}`
///   (base64; the challenge as issued) → 201 `{"keyId", "status":
///   "attested"}`: the challenge is consumed, the attestation verified
///   (all nine steps) with clientDataHash = SHA-256 of the challenge's
///   bytes, and the key stored with counter 0.
///   A key id is attested once (409 after).
/// - `POST /appattest/assert` `{"keyId", "assertion", "clientData"}`
///   (base64; clientData is the JSON `{"challenge": …}` the app signed) →
///   200: the challenge in clientData is consumed, the assertion verified
///   against the stored key and counter, and the new counter saved before
///   the answer.
///
/// Refusals: 400 a malformed request, 401 a verification failure, 403 a
/// launch-policy refusal, 404 an unknown key, 409 a challenge not issued,
/// expired or used, or a key attested twice. In test mode the trust
/// anchors are the software device's test root (`trustsuite device ca`)
/// instead of Apple's: the only difference from production.
public struct ExampleServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var appId: String
        public var environment: AppAttestEnvironment
        /// Apple's App Attestation root in production; the device's test root in test mode.
        public var trustAnchors: [Certificate]
        /// Where keys and counters are kept; nil: memory only.
        public var stateFile: URL?
        public var launchPolicy: LaunchPolicy?
        /// How long an issued challenge may be used.
        public var challengeLifetime: TimeInterval = 300
        /// Largest request body read (an attestation is about 5 KB).
        public var maxBodySize = 64 * 1024
        /// Idle, header and body limits per connection, and the most
        /// connections open at once (the same as `serve devicecheck`'s).
        public var timeouts = ConnectionTimeouts()
        /// Signals that stop the server (none: stopped by cancelling its task).
        public var shutdownSignals: [UnixSignal] = [.sigterm, .sigint]
        /// The server's log level (Hummingbird's own messages included).
        public var logLevel: Logger.Level = .error
        /// Deliberate bugs for the probe's own mutation test and `serve appattest --flaw` (package only: never in a real server).
        package var flaws: Set<ExampleServerFlaw> = []

        public init(
            host: String = "127.0.0.1", port: Int, appId: String, environment: AppAttestEnvironment,
            trustAnchors: [Certificate], stateFile: URL? = nil, launchPolicy: LaunchPolicy? = nil
        ) {
            self.host = host
            self.port = port
            self.appId = appId
            self.environment = environment
            self.trustAnchors = trustAnchors
            self.stateFile = stateFile
            self.launchPolicy = launchPolicy
        }
    }

    let configuration: Configuration
    /// Held for the server's life: one server per state file (`StateLock`).
    let lock: StateLock?
    let store: ExampleStore
    let attestationVerifier: AttestationVerifier
    let assertionVerifier: AssertionVerifier

    public init(_ configuration: Configuration) throws {
        guard !configuration.trustAnchors.isEmpty else { throw ExampleServerError("give at least one trust anchor") }
        self.configuration = configuration
        // Before the state is read: a second server on the same state would
        // start from the first's keys and counters and overwrite its saves.
        do throws(StateFileError) {
            lock = try configuration.stateFile.map { url throws(StateFileError) in
                try StateLock.acquire(for: url.path, service: "serve appattest")
            }
        } catch {
            throw ExampleServerError(error.description)
        }
        store = try ExampleStore(
            stateFile: lock.map { URL(fileURLWithPath: $0.stateFile) }, challengeLifetime: configuration.challengeLifetime)
        var policy = configuration.flaws.contains(.ignoreLaunchPolicy) ? nil : configuration.launchPolicy
        if configuration.flaws.contains(.ignoreCodeDirectoryHashAllowlist) { policy?.allowedCodeDirectoryHashes = nil }
        attestationVerifier = try AttestationVerifier(
            appId: configuration.appId, environment: configuration.environment,
            trustAnchors: configuration.trustAnchors, launchPolicy: policy)
        assertionVerifier = AssertionVerifier(appId: configuration.appId, launchPolicy: policy)
    }

    /// Serves until a shutdown signal or until the calling task is
    /// cancelled; `onListening` gets the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router()
        router.post("appattest/challenge") { _, _ in await challenge() }
        router.post("appattest/attest") { request, _ in await attest(request) }
        router.post("appattest/assert") { request, _ in await assert(request) }
        var logger = Logger(label: "trustsuite.appattest-example")
        logger.logLevel = configuration.logLevel
        let timeouts = configuration.timeouts
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                TimedHTTP1Channel(inner: HTTP1Channel(responder: responder), timeouts: timeouts)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "appattest-example"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app)],
                gracefulShutdownSignals: configuration.shutdownSignals, logger: logger))
        try await group.run()
    }

    // MARK: Endpoints

    func challenge() async -> Response {
        let bytes = await store.issueChallenge(now: Date())
        return Self.json(.ok, ["challenge": BinaryText.base64(bytes)])
    }

    struct AttestBody: Decodable {
        var keyId: String
        var attestation: String
        var challenge: String
    }

    func attest(_ request: Request) async -> Response {
        if configuration.flaws.contains(.refuseEverything) {
            return Self.refusal(.unauthorized, "refused", "this server refuses everything")
        }
        guard let body = await Self.decode(AttestBody.self, request, limit: configuration.maxBodySize),
            let keyId = BinaryText.base64(body.keyId), let object = BinaryText.base64(body.attestation),
            let challenge = BinaryText.base64(body.challenge)
        else {
            return Self.refusal(.badRequest, "malformedRequest", "expected JSON {keyId, attestation, challenge}, each base64")
        }
        guard await store.consumeChallenge(challenge, now: Date(), flaws: configuration.flaws) else {
            return Self.refusal(.conflict, "challengeNotIssued", "the challenge was not issued by this server, has expired or was used")
        }
        let flaws = configuration.flaws
        let publicKey: [UInt8]
        do {
            let hash = flaws.contains(.hashAttestationChallengeTwice) ? Self.sha256(Self.sha256(challenge)) : Self.sha256(challenge)
            let verified = try await attestationVerifier.verify(attestationObject: object, keyId: keyId, clientDataHash: hash, at: Date())
            if flaws.contains(.refuseTrailingAttestationData), verified.extensions != nil {
                return Self.refusal(.badRequest, "malformedAuthenticatorData", "data after the credential public key")
            }
            if flaws.contains(.refuseMacAttestationData), verified.launchData?.shape == .macOS {
                return Self.refusal(
                    .badRequest, "malformedAuthenticatorData", "unknown launch-data key \(LaunchData.codeDirectoryHashTypeKey)")
            }
            publicKey = verified.publicKey
        } catch {
            let skipped = flaws.contains(.skipAttestationStep(error.code)) || flaws.contains(.storeUnattestedKeys)
            guard skipped, let key = try? AttestationObject(bytes: object).authenticatorData.credential?.publicKey.x963 else {
                return Self.refusal(error)
            }
            if flaws.contains(.storeUnattestedKeys), !flaws.contains(.skipAttestationStep(error.code)) {
                // The real case: 201, the key kept as "unattested", the mark never read again.
                _ = try? await store.addKey(keyId, publicKey: key, overwrite: flaws.contains(.overwriteKeys))
                return Self.json(.created, ["keyId": body.keyId, "status": "unattested", "reason": error.reason])
            }
            publicKey = key
        }
        do {
            guard try await store.addKey(keyId, publicKey: publicKey, overwrite: flaws.contains(.overwriteKeys)) else {
                return Self.refusal(.conflict, "keyAlreadyAttested", "this key id is already attested")
            }
        } catch {
            return Self.refusal(.internalServerError, "stateNotSaved", "\(error)")
        }
        return Self.json(.created, ["keyId": body.keyId, "status": "attested"])
    }

    struct AssertBody: Decodable {
        var keyId: String
        var assertion: String
        var clientData: String
    }

    /// What the app signs: `{"challenge": "<base64, as issued>"}` (and whatever else it needs).
    struct ClientData: Decodable {
        var challenge: String
    }

    func assert(_ request: Request) async -> Response {
        if configuration.flaws.contains(.slowAssertions) { try? await Task.sleep(for: .seconds(12)) }
        if configuration.flaws.contains(.refuseEverything) {
            return Self.refusal(.unauthorized, "refused", "this server refuses everything")
        }
        guard let body = await Self.decode(AssertBody.self, request, limit: configuration.maxBodySize),
            let keyId = BinaryText.base64(body.keyId), let assertion = BinaryText.base64(body.assertion),
            let clientData = BinaryText.base64(body.clientData)
        else {
            return Self.refusal(.badRequest, "malformedRequest", "expected JSON {keyId, assertion, clientData}, each base64")
        }
        guard let signed = try? JSONDecoder().decode(ClientData.self, from: Data(clientData)),
            let challenge = BinaryText.base64(signed.challenge)
        else {
            return Self.refusal(.badRequest, "malformedRequest", "clientData must be JSON with a base64 \"challenge\"")
        }
        // Step 6 of the assertion, the application's: the challenge it signed was issued here and is used once.
        guard await store.consumeChallenge(challenge, now: Date(), flaws: configuration.flaws) else {
            return Self.refusal(.conflict, "challengeNotIssued", "the challenge was not issued by this server, has expired or was used")
        }
        let flaws = configuration.flaws
        if let refusal = Self.flawedParse(assertion, flaws: flaws) { return refusal }
        let verifier = assertionVerifier
        let signedData = flaws.contains(.hashAssertionClientDataTwice) ? Self.sha256(clientData) : clientData
        do {
            let counter = try await store.advance(keyId) { key in
                guard let raw = BinaryText.base64(key.publicKey), let publicKey = ES256.publicKey(raw) else {
                    throw AppAttestError(.signatureInvalid, "the stored key is unreadable")
                }
                do {
                    return try verifier.verify(
                        assertion: assertion, clientData: signedData, publicKey: publicKey,
                        previousCounter: key.counter
                    ).counter
                } catch let error as AppAttestError where flaws.contains(.skipAssertionStep(error.code)) {
                    return max(key.counter, (try? Assertion(bytes: assertion).authenticatorData.signCount) ?? key.counter)
                }
            }
            guard let counter else {
                if flaws.contains(.failOpenUnknownKey) { return Self.json(.ok, ["counter": "unknown key"]) }
                return Self.refusal(.notFound, "unknownKey", "no attested key with this key id")
            }
            return Self.json(.ok, ["counter": String(counter)])
        } catch let error as AppAttestError {
            return Self.refusal(error)
        } catch {
            return Self.refusal(.internalServerError, "stateNotSaved", "\(error)")
        }
    }

    /// The parsing mistakes of ``ExampleServerFlaw`` (a correct server has none).
    static func flawedParse(_ assertion: [UInt8], flaws: Set<ExampleServerFlaw>) -> Response? {
        guard let parsed = try? Assertion(bytes: assertion) else { return nil }
        if flaws.contains(.requireUserPresence), !parsed.authenticatorData.flags.contains(.userPresent) {
            return refusal(.badRequest, "userNotPresent", "the UP flag is clear")
        }
        if flaws.contains(.refuseUnknownFlags), parsed.authenticatorData.flags.rawValue != 0x40 {
            return refusal(.badRequest, "malformedAuthenticatorData", "flags other than 0x40")
        }
        if flaws.contains(.refuseTrailingAssertionData), parsed.authenticatorData.bytes.count > 37 {
            return refusal(.badRequest, "malformedAuthenticatorData", "data after the 37-byte header")
        }
        if flaws.contains(.refuseMacAssertionData), parsed.authenticatorData.launchData?.shape == .macOS {
            return refusal(.badRequest, "malformedAuthenticatorData", "unknown launch-data key \(LaunchData.codeDirectoryHashTypeKey)")
        }
        return nil
    }

    // MARK: Helpers

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int) async -> T? {
        guard let buffer = try? await request.body.collect(upTo: limit) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    /// A verification refusal: 403 for the launch policy (the code-directory
    /// hash allowlist included), 401 for the rest.
    static func refusal(_ error: AppAttestError) -> Response {
        let policy: Set<AppAttestError.Code> = [
            .validationCategoryNotAllowed, .bundleVersionNotAllowed, .launchDataMissing, .codeDirectoryHashNotAllowed,
        ]
        return refusal(policy.contains(error.code) ? .forbidden : .unauthorized, error.code.rawValue, error.reason)
    }

    static func refusal(_ status: HTTPResponse.Status, _ code: String, _ reason: String) -> Response {
        json(status, ["error": code, "reason": reason])
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(object)) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
