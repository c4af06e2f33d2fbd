import DeviceCheckModel
import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import JWTKit
import Logging
import NIOCore
import ServiceGuards
import ServiceLifecycle
import TrustSuiteSupport
import UnixSignals

/// Why the service cannot start (bad key file, unreadable state file).
public struct DeviceCheckServiceError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A team's DeviceCheck key: the key id Apple shows, and its public key
/// (from a PEM public key, or from the `.p8` private key Apple hands out).
public struct DeveloperKey: Sendable {
    public let keyId: String
    public let publicKey: P256.Signing.PublicKey

    public init(keyId: String, publicKey: P256.Signing.PublicKey) {
        self.keyId = keyId
        self.publicKey = publicKey
    }

    /// Reads `KEYID=FILE`: the file holds a PEM public key or a PKCS#8
    /// private key (`AuthKey_KEYID.p8`).
    public init(argument: String) throws {
        let (keyId, text, path) = try Self.read(argument)
        if let key = try? P256.Signing.PublicKey(pemRepresentation: text) {
            self.init(keyId: keyId, publicKey: key)
        } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            self.init(keyId: keyId, publicKey: key.publicKey)
        } else {
            throw DeviceCheckServiceError("\(path) holds no P-256 key in PEM (a public key or a .p8 private key)")
        }
    }

    /// The key id and private key of `KEYID=FILE.p8`.
    public static func privateKey(argument: String) throws -> (keyId: String, key: P256.Signing.PrivateKey) {
        let (keyId, text, path) = try read(argument)
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: text) else {
            throw DeviceCheckServiceError("\(path) holds no P-256 private key in PEM (the .p8 file)")
        }
        return (keyId, key)
    }

    /// Largest key file read: a PEM key is a few hundred bytes.
    static let maxKeyFileBytes = 64 * 1024

    static func read(_ argument: String) throws -> (keyId: String, text: String, path: String) {
        let parts = argument.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw DeviceCheckServiceError("--key takes KEYID=FILE, got \(argument)")
        }
        let path = String(parts[1])
        // Through the bounded reader every CLI input uses: a FIFO or a device is refused, not waited on.
        guard let data = try? RegularFile.read(path, limit: maxKeyFileBytes), let text = String(validating: data, as: UTF8.self) else {
            throw DeviceCheckServiceError("cannot read key file \(path)")
        }
        return (String(parts[0]), text, path)
    }
}

/// Developer tokens as a server sends them to DeviceCheck: ES256, `kid` the
/// key id, `iss` the team, `iat` now.
public enum DeveloperTokens {
    public static func make(team: String, keyId: String, key: P256.Signing.PrivateKey, issuedAt: Date = Date()) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: keyId))
        return try await keys.sign(
            DeveloperToken(iss: IssuerClaim(value: team), iat: IssuedAtClaim(value: issuedAt), exp: nil),
            kid: JWKIdentifier(string: keyId))
    }
}

/// The claims of a developer token: Apple requires the team as issuer and
/// an issue time within the last hour.
struct DeveloperToken: JWTPayload {
    var iss: IssuerClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A local stand-in for Apple's DeviceCheck service
/// (`api.development.devicecheck.apple.com`): `/v1/validate_device_token`,
/// `/v1/query_two_bits` and `/v1/update_two_bits` as docs/models/app-attest.md
/// describes them, through the DeviceCheck model, behind ES256 developer
/// tokens checked with jwt-kit.
public struct DeviceCheckService: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var team: String
        public var keys: [DeveloperKey]
        public var stateFile: URL?
        /// Largest request body read (larger ones get 413).
        public var maxBodySize = 64 * 1024
        /// Idle, header and body limits per connection, and the most
        /// connections open at once.
        public var timeouts = ConnectionTimeouts()
        /// After SIGTERM or SIGINT, how long requests in progress may take
        /// before their connections are cut: a stalled client cannot hold
        /// the service up (the round-3 audit saw SIGTERM wait for one).
        public var shutdownGrace: Duration = .seconds(5)

        public init(host: String = "127.0.0.1", port: Int, team: String, keys: [DeveloperKey], stateFile: URL? = nil) {
            self.host = host
            self.port = port
            self.team = team
            self.keys = keys
            self.stateFile = stateFile
        }
    }

    /// How old a developer token may be (Apple: one hour).
    public static let tokenLifetime: TimeInterval = 3600
    /// Clock skew allowed for an issue time in the future.
    public static let futureSkew: TimeInterval = 60

    let configuration: Configuration
    let keys: JWTKeyCollection
    let state: DeviceCheckState
    /// Held for the service's life: one service per state file (`StateLock`).
    let lock: StateLock?

    public init(_ configuration: Configuration) async throws {
        guard !configuration.keys.isEmpty else { throw DeviceCheckServiceError("give at least one --key KEYID=FILE") }
        self.configuration = configuration
        keys = JWTKeyCollection()
        for key in configuration.keys {
            await keys.add(ecdsa: try ES256PublicKey(backing: key.publicKey), kid: JWKIdentifier(string: key.keyId))
        }
        // jwt-kit makes the first key the default, used for a token whose kid
        // is unknown or missing; Apple accepts only a known key id.
        await keys.clearDefault()
        // The lock comes before the state is read: a second service must not
        // fold (and unlink) the journal the first is still appending to.
        do throws(StateFileError) {
            lock = try configuration.stateFile.map { url throws(StateFileError) in
                try StateLock.acquire(for: url.path, service: "serve devicecheck")
            }
        } catch {
            throw DeviceCheckServiceError(error.description)
        }
        // At the real path the lock is named by: a symbolic link given as
        // --state stays a link (an atomic replace would make it a file).
        state = try DeviceCheckState(stateFile: lock.map { URL(fileURLWithPath: $0.stateFile) })
    }

    /// Serves until SIGINT or SIGTERM; `onListening` gets the bound port
    /// (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router()
        for endpoint in DeviceCheckServer.Endpoint.allCases {
            router.post("v1/\(endpoint.rawValue)") { request, _ in
                await respond(to: request, endpoint: endpoint)
            }
            for method in [HTTPRequest.Method.get, .put, .delete, .patch, .head] {
                router.on("v1/\(endpoint.rawValue)", method: method) { _, _ in
                    var response = Self.text(.methodNotAllowed, "Method Not Allowed")
                    response.headers[.allow] = "POST"
                    return response
                }
            }
        }
        var logger = Logger(label: "trustsuite.devicecheck")
        // Critical only: when the state can no longer be saved the group is
        // torn down mid-request and Hummingbird logs that at `error` ("Server
        // shutdown error: Already closed", "Waiting on child channel"),
        // which buried the service's one fail-stop line.
        logger.logLevel = .critical
        let timeouts = configuration.timeouts
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                TimedHTTP1Channel(inner: HTTP1Channel(responder: responder), timeouts: timeouts)
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "trustsuite-devicecheck"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        var group = ServiceGroupConfiguration(
            services: [.init(service: app), .init(service: StateGuard(failures: state.failures))],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownGrace
        try await ServiceGroup(configuration: group).run()
    }

    /// Ends the service group, with the reason, when the state can no longer
    /// be saved (fail-stop, see `DeviceCheckState`).
    struct StateGuard: Service {
        let failures: AsyncStream<StateFileError>

        func run() async throws {
            for await error in failures.cancelOnGracefulShutdown() {
                throw DeviceCheckServiceError("the state can no longer be saved: \(error)")
            }
        }
    }

    /// Answers one request: 401 unless the developer token verifies, then
    /// the model's answer.
    func respond(to request: Request, endpoint: DeviceCheckServer.Endpoint) async -> Response {
        let authorized = await isAuthorized(request.headers[.authorization])
        var body: JSONValue? = nil
        if authorized {
            // A declared length over the limit is refused before any byte of
            // the body is read (a 1 GB Content-Length got its 413 only when
            // --body-timeout closed the connection); the connection is closed
            // after the answer, so the unread body is never waited for.
            if let declared = request.headers[.contentLength], Self.exceeds(declared, configuration.maxBodySize) {
                var response = Self.text(.contentTooLarge, "Request body larger than \(configuration.maxBodySize) bytes")
                response.headers[.connection] = "close"
                return response
            }
            guard let buffer = try? await request.body.collect(upTo: configuration.maxBodySize) else {
                return Self.text(.contentTooLarge, "Request body larger than \(configuration.maxBodySize) bytes")
            }
            body = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
        }
        let answer: DeviceCheckServer.Response
        do {
            answer = try await state.handle(
                endpoint, request: DeviceCheckJSON.request(body), team: configuration.team,
                authorized: authorized, at: Date())
        } catch {
            return Self.text(.internalServerError, "State could not be saved: \(error)")
        }
        switch answer.body {
        case .empty:
            return Response(status: .init(code: answer.status))
        case .text(let text):
            return Self.text(.init(code: answer.status), text)
        case .bits:
            let json = DeviceCheckJSON.body(answer.body)
            let data = (try? JSONEncoder().encode(json)) ?? Data()
            return Response(
                status: .init(code: answer.status), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    /// Whether a Content-Length value declares more than `limit` bytes (a
    /// number too long for an Int does too; a malformed value is left to the
    /// HTTP parser).
    static func exceeds(_ declared: String, _ limit: Int) -> Bool {
        let digits = declared.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        guard let value = Int(digits) else { return true }
        return value > limit
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `Bearer <ES256 JWT>` whose `kid` is a configured key, whose issuer is
    /// the team, issued within the last hour (and not expired when it says so).
    func isAuthorized(_ header: String?) async -> Bool {
        guard let header, header.lowercased().hasPrefix("bearer ") else { return false }
        let token = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        // jwt-kit verifies with the key the kid names, whatever the header's
        // alg says (the round-3 audit passed `none`, HS256, RS256 and ES384
        // headers over ES256 signatures): Apple's tokens are ES256 only.
        guard Self.algorithm(of: token) == "ES256", let claims = try? await keys.verify(token, as: DeveloperToken.self) else {
            return false
        }
        let now = Date()
        guard claims.iss.value == configuration.team,
            claims.iat.value <= now.addingTimeInterval(Self.futureSkew),
            now.timeIntervalSince(claims.iat.value) <= Self.tokenLifetime
        else { return false }
        if let exp = claims.exp, exp.value < now { return false }
        return true
    }

    /// The `alg` of a compact JWS header, nil when the header is not base64url JSON.
    static func algorithm(of token: String) -> String? {
        guard let encoded = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let bytes = BinaryText.base64Lenient(encoded.utf8),
            let header = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        else { return nil }
        return header["alg"]?.stringValue
    }
}
