import Crypto
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `trustsuite serve devicecheck` under the round-3 audit's abuse (issue 22
/// item 4): state paths it cannot write, tokens whose header names another
/// algorithm, slow and stalled clients, SIGTERM with a stalled client.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DeviceCheckAbuseTests {
    /// A FIFO (no writer), a character device, a directory and a path in a
    /// missing folder: each refuses the start with one line and exit 2, at
    /// once (the audit's service started, then answered 500 after applying
    /// the update in memory, and replaced the FIFO with a file).
    @Test(arguments: ["fifo", "device", "directory", "missing folder"])
    func refusesAStatePathItCannotWrite(_ kind: String) throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let fifo = team.folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let path =
            switch kind {
            case "fifo": fifo.path
            case "device": try Self.characterDevice(in: team.folder)
            case "directory": team.folder.path
            default: team.folder.appendingPathComponent("none/bits.json").path
            }
        // A service that read the FIFO or served on would be killed at CLI.run's deadline (signaled).
        let outcome = try CLI.run(
            [
                "serve", "devicecheck", "--port", "0", "--team", Team.id, "--key", team.keyArgument,
                "--state", path,
            ], timeout: 20)
        #expect(!outcome.signaled && outcome.status == 2, "\(outcome)")
        #expect(outcome.stdout.isEmpty, "\(outcome)")
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: cannot keep the state"), "\(outcome)")
        // The FIFO was not replaced by a file, and no missing folder was created.
        let type = try FileManager.default.attributesOfItem(atPath: fifo.path)[.type] as? FileAttributeType
        #expect(type != nil && type != .typeRegular)
        #expect(!FileManager.default.fileExists(atPath: team.folder.appendingPathComponent("none").path))
    }

    /// A character device to offer as the state path. As root (CI) it is a
    /// null device made in the test's own folder, so a service that wrongly
    /// renamed a file over it could not replace the machine's `/dev/null`
    /// (a broken build once did); without root nothing in `/dev` can be
    /// replaced, so `/dev/null` itself is safe to name.
    static func characterDevice(in folder: URL) throws -> String {
        guard geteuid() == 0 else { return "/dev/null" }
        let path = folder.appendingPathComponent("null-device").path
        // dev_t of major 1, minor 3 (glibc's makedev is a macro, not importable).
        #expect(mknod(path, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0, "mknod \(path): errno \(errno)")
        return path
    }

    /// A token signed ES256 by the team's key whose header names another
    /// algorithm is refused (401); the same construction saying ES256 is
    /// accepted, so the refusals are for the header alone.
    @Test(.enabled(if: DeviceCheckServiceTests.curlAvailable, "curl not installed (.ci/run installs it)"))
    func onlyES256HeadersAreAccepted() throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument])
        defer { service.stop() }
        let device = try team.device("phone")
        let url = service.base + "/v1/query_two_bits"
        func token(alg: String) throws -> String {
            let header = VerifyInputFormTests.base64url(Array("{\"alg\":\"\(alg)\",\"kid\":\"\(Team.keyId)\",\"typ\":\"JWT\"}".utf8))
            let claims = VerifyInputFormTests.base64url(Array("{\"iss\":\"\(Team.id)\",\"iat\":\(Int(Date().timeIntervalSince1970))}".utf8))
            let signature = try team.privateKey.signature(for: Data("\(header).\(claims)".utf8))
            return "\(header).\(claims).\(VerifyInputFormTests.base64url(Array(signature.rawRepresentation)))"
        }
        #expect(try curl(url, bearer: token(alg: "ES256"), body: request(try team.token(device))) == (200, "Failed to find bit state"))
        for alg in ["HS256", "none", "ES384", "RS256", "es256", "ES512"] {
            #expect(
                try curl(url, bearer: token(alg: alg), body: request(try team.token(device)))
                    == (401, "Unable to verify authorization token"), "alg \(alg)")
        }
    }

    /// Each limit on its own, the other two an hour: a client that sends
    /// nothing (idle), one that sends its headers a byte every 200 ms
    /// (header), one that trickles its body (body) is closed within a few
    /// seconds of its one-second limit, while it is still sending; the
    /// service keeps serving.
    @Test(
        .enabled(if: DeviceCheckServiceTests.curlAvailable, "curl not installed (.ci/run installs it)"),
        arguments: ["idle", "header", "body"])
    func slowClientsAreClosed(_ limit: String) async throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        var options: [String] = []
        for name in ["idle", "header", "body"] { options += ["--\(name)-timeout", name == limit ? "1" : "3600"] }
        let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument], extra: options)
        defer { service.stop() }
        let client = try RawClient(port: service.port)
        let head = "POST /v1/query_two_bits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        // Counted, not timed: the limit under test is 1 s and the others an
        // hour, so a close within the 15 s wait is that limit's; the bytes
        // sent (one per 0.2 s) show it came before the client was done.
        var sent = 0
        switch limit {
        case "idle":
            break
        case "header":
            for byte in head.utf8 where client.send([byte]) { sent += 1; usleep(200_000) }
        default:
            let bearer = try await team.jwt()
            _ = client.send(Array((head + "Authorization: Bearer \(bearer)\r\nContent-Length: 100000\r\n\r\n").utf8))
            // At most 60 bytes (12 s): with no body limit the connection would stay open.
            while sent < 60, client.send([0x20]) { sent += 1; usleep(200_000) }
        }
        let closed = client.waitForClose(seconds: 15)
        #expect(closed, "\(limit): not closed")
        if limit != "idle" {
            #expect(sent > 0, "\(limit): closed before the first byte")
            #expect(sent < (limit == "header" ? head.utf8.count : 60), "\(limit): sent it all (\(sent) bytes) before the close")
        }
        #expect(
            try curl(service.base + "/v1/query_two_bits", bearer: try await team.jwt(), body: request(try team.token(team.device("p")))).0
                == 200)
    }

    /// SIGTERM while a client holds a request open (headers sent, body
    /// stalled; body limit an hour): the service ends by itself within its
    /// one-second grace period, with status 0.
    @Test func sigtermWithAStalledClientEndsWithinTheGrace() async throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let state = team.folder.appendingPathComponent("bits.json")
        let service = try LocalDeviceCheck(
            folder: team.folder, team: Team.id, keys: [team.keyArgument], state: state,
            extra: ["--body-timeout", "3600", "--idle-timeout", "3600", "--shutdown-grace", "1"])
        defer { service.crash() }
        let client = try RawClient(port: service.port)
        let bearer = try await team.jwt()
        #expect(
            client.send(
                Array(
                    ("POST /v1/update_two_bits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(bearer)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"device_token\":").utf8)))
        try await Task.sleep(for: .milliseconds(300))
        // Not timed: the body and idle limits are an hour, so a service that
        // ends by itself, with status 0, ended through its grace; one that
        // waits for the client holds the test to its time limit and fails.
        service.process.terminate()
        await Waiting.exit(of: service.process)
        #expect(!service.process.isRunning, "still running after SIGTERM (the time limit ended the wait)")
        if !service.process.isRunning {
            #expect(service.process.terminationReason == .exit && service.process.terminationStatus == 0)
        }
    }
}

/// A TCP client on loopback that writes bytes as a slow or stalled client does.
final class RawClient {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, connected == 0 else { throw DeviceError("cannot connect to port \(port)") }
    }

    deinit { close(descriptor) }

    /// False once the peer has closed (or the write fails).
    func send(_ bytes: [UInt8]) -> Bool {
        if peerClosed(waiting: 0) { return false }
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Bytes the peer sent within `milliseconds` (empty when none came), nil once it has closed.
    func receive(waitingMilliseconds milliseconds: Int) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(milliseconds)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 || (count < 0 && errno != EAGAIN) { return nil }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Waits up to `seconds` for the peer to close the connection.
    func waitForClose(seconds: Int) -> Bool { peerClosed(waiting: seconds * 1000) }

    private func peerClosed(waiting milliseconds: Int) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        repeat {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(0, min(100, milliseconds))))
            if ready > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count == 0 || (count < 0 && errno != EAGAIN) { return true }
            }
        } while ContinuousClock.now < deadline
        return false
    }
}
