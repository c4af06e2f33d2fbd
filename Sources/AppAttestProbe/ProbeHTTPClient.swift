import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TrustSuiteSupport

/// One request the probe sends: everything filled in.
public struct ProbeRequest: Sendable, CustomStringConvertible {
    /// Which of the config's three requests this is.
    public enum Kind: String, Sendable { case challenge, attest, assert }

    public let kind: Kind
    public let method: String
    /// Path (and query) below `baseURL`.
    public let path: String
    public let headers: [(name: String, value: String)]
    public let body: String?

    public var description: String { "\(method) \(path)" + (body.map { " \($0.prefix(Self.shownBodyCharacters))" } ?? "") }
    /// How much of a body a report shows: enough to see the fields, not a whole attestation.
    static let shownBodyCharacters = 300
}

/// What came back: a status and the body, or why nothing did.
public enum ProbeResponse: Sendable {
    case answered(status: Int, body: [UInt8])
    /// Timeout, refused connection, reset, an answer too large: never a verdict.
    case failed(String)

    /// True when the connection was refused (nothing listens): the start-up check's "unreachable".
    var isConnectionFailure: Bool {
        if case .failed(let reason) = self { return reason.hasPrefix(ProbeHTTPClient.unreachablePrefix) }
        return false
    }
}

/// The probe's HTTP client (AsyncHTTPClient): every request bounded by the
/// config's `timeoutSeconds` from its start to its last byte, no redirects
/// followed (the probe talks only to `baseURL`), answers read up to a limit.
public final class ProbeHTTPClient: Sendable {
    /// Largest answer body read: a challenge or an error text is small; a
    /// server streaming without end must not fill the probe's memory.
    public static let maxResponseBytes = 1024 * 1024
    static let unreachablePrefix = "cannot connect"

    let client: HTTPClient
    let baseURL: URL
    let timeout: TimeAmount

    public init(baseURL: URL, timeoutSeconds: Double) {
        self.baseURL = baseURL
        timeout = .milliseconds(Int64(max(1, (timeoutSeconds * 1000).rounded())))
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: timeout, read: timeout)
        configuration.httpVersion = .http1Only
        // A refused connection is an answer (nothing listens), not a reason
        // to retry until the deadline: the probe talks to one server it was
        // told is running, and "server unreachable" must come at once.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Sends `request`; never throws: a failure is an answer of its own.
    public func send(_ request: ProbeRequest) async -> ProbeResponse {
        var url = baseURL.absoluteString
        while url.hasSuffix("/") { url.removeLast() }
        var outgoing = HTTPClientRequest(url: url + request.path)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body {
            outgoing.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(ByteBuffer(string: body))
        }
        let seconds = String(format: "%g", Double(timeout.nanoseconds) / 1e9)
        do {
            let response = try await client.execute(outgoing, deadline: .now() + timeout)
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            return .answered(status: Int(response.status.code), body: Array(body.readableBytesView))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return .failed("no answer within \(seconds) s (timeoutSeconds)")
        } catch let error as HTTPClientError where error == .connectTimeout {
            return .failed("\(Self.unreachablePrefix) within \(seconds) s (timeoutSeconds)")
        } catch let error as HTTPClientError where error == .remoteConnectionClosed {
            return .failed("the server closed the connection without an answer")
        } catch is NIOTooManyBytesError {
            return .failed("the answer is larger than \(Self.maxResponseBytes) bytes")
        } catch let error as NIOConnectionError {
            return .failed("\(Self.unreachablePrefix) to \(baseURL.absoluteString): \(error.connectionErrors.first.map { "\($0.error)" } ?? "\(error)")")
        } catch {
            if "\(error)".contains("connectionRefused") || "\(error)".contains("Connection refused") {
                return .failed("\(Self.unreachablePrefix) to \(baseURL.absoluteString): connection refused")
            }
            return .failed("request failed: \(error)")
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}
