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

/// What came back: a status, the body and the headers (names in lower
/// case, repeated ones joined with ", "), or why nothing did.
public enum ProbeResponse: Sendable {
    case answered(status: Int, body: [UInt8], headers: [String: String])
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
///
/// The deadline covers the whole exchange (issue 44 item 2): connecting,
/// sending, the answer's head and every byte of its body. AsyncHTTPClient's
/// own deadline ends with the head, and its read timeout restarts with each
/// byte, so a server trickling its body a byte a second held one request for
/// minutes; here the exchange races a timer and is cancelled when it fires.
///
/// A fresh connection per request (issue 44 item 4): a server that closes
/// after each answer without `Connection: close` made 3–9 of 26 checks
/// `error` at random, each sent on a pooled connection the server had just
/// closed. Retrying instead was rejected: the probe's requests are POSTs
/// that consume challenges and counters, and after a close the probe cannot
/// know whether the server processed the first send (it may close after
/// acting, before answering), so a retry could be a replay, the very thing
/// several checks judge. A loopback connection costs well under a
/// millisecond; a run sends about 100 requests.
///
/// What a server hands back never reaches AsyncHTTPClient unchecked (issue
/// 44 item 3): a request whose head would pass `maxRequestHeadBytes`, or
/// whose path or header values hold control characters, is not sent (a
/// ~100 KB head made AsyncHTTPClient trap).
public final class ProbeHTTPClient: Sendable {
    /// Largest answer body read: a challenge or an error text is small; a
    /// server streaming without end must not fill the probe's memory.
    public static let maxResponseBytes = 1024 * 1024
    /// Largest request head sent (request line and headers): servers take
    /// 8–16 KiB; a challenge placed in the path or a header is refused
    /// long before (`ProbeSession.maxChallengeCharacters`).
    public static let maxRequestHeadBytes = 16 * 1024
    /// Room kept in the head for what AsyncHTTPClient adds (Host,
    /// Content-Length, Content-Type, User-Agent, Connection).
    static let addedHeadBytes = 512
    static let unreachablePrefix = "cannot connect"

    let client: HTTPClient
    let baseURL: URL
    let timeout: TimeAmount

    public init(baseURL: URL, timeoutSeconds: Double) {
        self.baseURL = baseURL
        timeout = .milliseconds(Int64(max(1, (timeoutSeconds * 1000).rounded())))
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        // No idle read timeout: the deadline below bounds the whole exchange,
        // and AsyncHTTPClient's idle-read state machine is where its trap on a
        // large head answered early sits ("Waiting for response data must
        // start after request head was sent"): without the timeout it is not made.
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: timeout, read: nil)
        configuration.httpVersion = .http1Only
        // A refused connection is an answer (nothing listens), not a reason
        // to retry until the deadline: the probe talks to one server it was
        // told is running, and "server unreachable" must come at once.
        configuration.connectionPool.retryConnectionEstablishment = false
        // One request per connection (see above): no request is ever sent
        // on a connection the server may have closed.
        configuration.maximumUsesPerConnection = 1
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Why `request` must not be sent, or nil: a head too large, control
    /// characters in its path or header values.
    static func refusal(_ request: ProbeRequest) -> String? {
        func hasControl(_ text: String) -> Bool { text.utf8.contains { $0 < 0x20 || $0 == 0x7F } }
        if hasControl(request.path) { return "the request path holds control characters (from the server's challenge?); not sent" }
        if let header = request.headers.first(where: { hasControl($0.value) }) {
            return "header \(header.name) holds control characters (from the server's challenge?); not sent"
        }
        let head =
            request.method.utf8.count + request.path.utf8.count + 12
            + request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if head + addedHeadBytes > maxRequestHeadBytes {
            return "the request head would be \(head + addedHeadBytes) bytes, more than \(maxRequestHeadBytes); not sent"
        }
        return nil
    }

    /// Sends `request`; never throws: a failure is an answer of its own.
    public func send(_ request: ProbeRequest) async -> ProbeResponse {
        if let refusal = Self.refusal(request) { return .failed(refusal) }
        var url = baseURL.absoluteString
        while url.hasSuffix("/") { url.removeLast() }
        url += request.path
        // The path is joined below baseURL's authority, so the host cannot
        // change; checked all the same: the probe talks only to baseURL.
        guard let target = URL(string: url), target.host == baseURL.host, target.port == baseURL.port,
            target.scheme == baseURL.scheme
        else {
            return .failed("the request URL \(url.prefix(200)) does not parse as a URL below baseURL; not sent")
        }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body {
            outgoing.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(ByteBuffer(string: body))
        }
        let seconds = String(format: "%g", Double(timeout.nanoseconds) / 1e9)
        let client = client, timeout = timeout, prepared = outgoing
        do {
            return try await withThrowingTaskGroup(of: ProbeResponse?.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, deadline: .now() + timeout)
                    let body = try await response.body.collect(upTo: Self.maxResponseBytes)
                    var headers: [String: String] = [:]
                    for header in response.headers {
                        let name = header.name.lowercased()
                        headers[name] = headers[name].map { $0 + ", " + header.value } ?? header.value
                    }
                    return .answered(status: Int(response.status.code), body: Array(body.readableBytesView), headers: headers)
                }
                group.addTask {
                    // nil: the deadline passed first. Cancelled when the exchange ends first.
                    try? await Task.sleep(nanoseconds: UInt64(max(0, timeout.nanoseconds)))
                    return nil
                }
                defer { group.cancelAll() }
                // The first to finish decides; cancelling the other ends the
                // exchange (AsyncHTTPClient cancels the request and closes its connection).
                guard let first = try await group.next(), let response = first else {
                    return .failed("no answer within \(seconds) s (timeoutSeconds)")
                }
                return response
            }
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return .failed("no answer within \(seconds) s (timeoutSeconds)")
        } catch let error as HTTPClientError where error == .connectTimeout {
            return .failed("\(Self.unreachablePrefix) within \(seconds) s (timeoutSeconds)")
        } catch let error as HTTPClientError where error == .remoteConnectionClosed {
            return .failed("the server closed the connection without an answer")
        } catch is NIOTooManyBytesError {
            return .failed("the answer is larger than \(Self.maxResponseBytes) bytes")
        } catch let error as NIOConnectionError {
            return .failed(
                "\(Self.unreachablePrefix) to \(baseURL.absoluteString): \(error.connectionErrors.first.map { "\($0.error)" } ?? "\(error)")"
            )
        } catch {
            if "\(error)".contains("connectionRefused") || "\(error)".contains("Connection refused") {
                return .failed("\(Self.unreachablePrefix) to \(baseURL.absoluteString): connection refused")
            }
            return .failed("request failed: \(String("\(error)".prefix(300)))")
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}
