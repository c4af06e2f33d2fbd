#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// A misbehaving HTTP server on 127.0.0.1 for the probe's hostile-server
/// battery (issue 44 items 2–4): plain sockets and threads of its own (the
/// probe runs as a child process meanwhile, and a test blocks its thread on
/// it). It stops by itself after `lifetime` seconds, whatever the client
/// does, and on `stop()`; every connection's thread checks that flag at
/// least every 100 ms, so no thread or socket outlives the test.
final class HostileHTTPServer: @unchecked Sendable {
    /// What the server does with one connection.
    typealias Behaviour = @Sendable (HostileConnection) -> Void

    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var open: Set<Int32> = []
    private let threads = DispatchGroup()
    let deadline: ContinuousClock.Instant

    init(lifetime: Duration = .seconds(60), _ behaviour: @escaping Behaviour) throws {
        let (descriptor, port) = try HostileHTTPServer.listen()
        listener = descriptor
        self.port = port
        deadline = ContinuousClock.now + lifetime
        threads.enter()
        Thread.detachNewThread { [self] in
            defer { threads.leave() }
            acceptLoop(behaviour)
        }
    }

    deinit { stop() }

    var isStopped: Bool { lock.withLock { stopped } || ContinuousClock.now > deadline }

    /// Stops accepting, shuts every connection down, waits for the threads
    /// and closes the listening socket (once, whoever calls first).
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        for socket in lock.withLock({ open }) { shutdown(socket, Int32(SHUT_RDWR)) }
        threads.wait()
        close(listener)
    }

    private func acceptLoop(_ behaviour: @escaping Behaviour) {
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let registered = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                open.insert(client)
                return true
            }
            guard registered else {
                close(client)
                break
            }
            threads.enter()
            Thread.detachNewThread { [self] in
                defer {
                    lock.withLock { _ = open.remove(client) }
                    close(client)
                    threads.leave()
                }
                behaviour(HostileConnection(descriptor: client, server: self))
            }
        }
        // Connections still open when the lifetime ends are cut.
        let sockets = lock.withLock { open }
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    static func listen() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DeviceError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0, Glibc.listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw DeviceError("bind or listen failed")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// One accepted connection, as a behaviour sees it.
struct HostileConnection {
    let descriptor: Int32
    let server: HostileHTTPServer

    /// Largest request read (head and body): the probe's requests are a few KiB.
    static let maxRequestBytes = 1 << 20

    struct Request {
        let head: String
        let body: [UInt8]
        var requestLine: Substring { head.split(separator: "\r\n").first ?? "" }
        var path: String { requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
    }

    /// Reads one request (head, and a body of its Content-Length); nil when
    /// the client closed, the server stopped, or nothing came in `seconds`.
    func readRequest(seconds: Double = 10) -> Request? {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let end = Self.headEnd(bytes) {
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").compactMap { line -> Int? in
                        let parts = line.split(separator: ":", maxSplits: 1)
                        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                        return Int(parts[1].trimmingCharacters(in: .whitespaces))
                    }.first ?? 0
                if bytes.count - (end + 4) >= length {
                    return Request(head: head, body: Array(bytes[(end + 4)..<(end + 4 + length)]))
                }
            }
            guard bytes.count < Self.maxRequestBytes, let chunk = receive(milliseconds: 100) else { return nil }
            bytes += chunk
        }
        return nil
    }

    /// Bytes within `milliseconds` (empty when none came), nil once the peer closed or the server stopped.
    func receive(milliseconds: Int) -> [UInt8]? {
        if server.isStopped { return nil }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(milliseconds)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 || (count < 0 && errno != EAGAIN) { return nil }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Writes all of `bytes`; false once the peer is gone or the server stopped.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            if server.isStopped { return false }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// A whole answer: status, JSON body, Content-Length; `close` adds `Connection: close`.
    @discardableResult
    func answer(_ status: Int, _ body: String, close: Bool = false) -> Bool {
        send(
            "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + (close ? "Connection: close\r\n" : "") + "\r\n" + body)
    }

    /// Sleeps `seconds` in steps, returning early (false) when the server stops.
    func pause(_ seconds: Double) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end {
            if server.isStopped { return false }
            usleep(20_000)
        }
        return !server.isStopped
    }

    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// Connects to 127.0.0.1:`port` (nil when refused).
func connectLoopback(_ port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}
