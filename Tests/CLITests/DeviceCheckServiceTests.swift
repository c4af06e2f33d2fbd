import ConformanceKit
import VectorContract
import Crypto
import Foundation
import JWTKit
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite serve devicecheck` started as a user starts it, on a free
/// loopback port, and stopped (SIGTERM, then SIGKILL) before the test ends.
final class LocalDeviceCheck: @unchecked Sendable {
    let server: ListeningProcess
    let folder: URL
    var port: Int { server.port }
    var process: Process { server.process }

    /// Starts the service for `team` with one key file per `keys` entry (KEYID=FILE).
    init(folder: URL, team: String, keys: [String], state: URL? = nil, extra: [String] = []) throws {
        self.folder = folder
        var arguments = ["serve", "devicecheck", "--port", "0", "--team", team]
        for key in keys { arguments += ["--key", key] }
        if let state { arguments += ["--state", state.path] }
        server = try ListeningProcess(executable: CLI.binary, arguments: arguments + extra)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// SIGTERM, then SIGKILL if it has not ended within five seconds.
    func stop() { server.stop() }

    /// SIGKILL at once (a crash, or a machine going down).
    func crash() { server.crash() }
}

struct DeviceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A developer team with a .p8 key, as Apple hands it out, and a device.
struct Team {
    static let id = "TEAM123456"
    static let keyId = "KEY1234567"
    let folder: URL
    let privateKey = P256.Signing.PrivateKey()
    var p8: URL { folder.appendingPathComponent("AuthKey_\(Self.keyId).p8") }
    var keyArgument: String { "\(Self.keyId)=\(p8.path)" }

    init() throws {
        folder = try CLI.temporaryFolder()
        try Data(privateKey.pemRepresentation.utf8).write(to: p8)
    }

    /// A software device in the team's folder, and a way to mint its tokens.
    func device(_ name: String) throws -> String {
        let state = folder.appendingPathComponent(name).path
        let made = try CLI.run([
            "device", "init", "--state", state, "--app-id", "\(Self.id).org.trustsuite.example",
            "--environment", "development",
        ])
        guard made.status == 0 else { throw DeviceError("device init: \(made)") }
        return state
    }

    func token(_ state: String) throws -> String {
        let minted = try CLI.run(["device", "devicecheck-token", "--state", state])
        guard minted.status == 0 else { throw DeviceError("devicecheck-token: \(minted)") }
        return minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An ES256 developer token (jwt-kit), issued `age` seconds ago.
    func jwt(
        team: String = Team.id, keyId: String = Team.keyId, key: P256.Signing.PrivateKey? = nil,
        age: TimeInterval = 0
    ) async throws -> String {
        struct Claims: JWTPayload {
            var iss: IssuerClaim
            var iat: IssuedAtClaim
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: key ?? privateKey), kid: JWKIdentifier(string: keyId))
        return try await keys.sign(
            Claims(iss: IssuerClaim(value: team), iat: IssuedAtClaim(value: Date().addingTimeInterval(-age))),
            kid: JWKIdentifier(string: keyId))
    }
}

/// curl, as a server's shell scripts call it: (status, body).
func curl(_ url: String, bearer: String?, body: String?, method: String = "POST", bodyFile: URL? = nil) throws -> (Int, String) {
    var arguments = ["-s", "-S", "--max-time", "30", "-o", "-", "-w", "\n%{http_code}", "-X", method, url]
    if let bearer { arguments += ["-H", "Authorization: Bearer \(bearer)"] }
    if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
    if let bodyFile { arguments += ["--data-binary", "@\(bodyFile.path)"] }
    let outcome = try CLI.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"))
    let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
}

func request(_ token: String, _ extra: String = "") -> String {
    "{\"device_token\":\"\(token)\",\"transaction_id\":\"\(UUID().uuidString)\",\"timestamp\":\(Int(Date().timeIntervalSince1970 * 1000))\(extra)}"
}

/// The current month as DeviceCheck reports it (UTC, `YYYY-MM`).
var currentMonth: String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents([.year, .month], from: Date())
    return String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
}

@Suite(.serialized) struct DeviceCheckServiceTests {
    static var curlAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") }

    /// The third-party `devicecheck` client from PyPI, its base URL pointed
    /// at the service: query before any set, each bit, the month, 401s.
    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func pythonClientRoundTrip() throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let other = team.folder.appendingPathComponent("other.p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: other)
        let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument])
        defer { service.stop() }
        let device = try team.device("phone")
        let outcome = try CLI.run(
            [
                Locations.packageRoot.appendingPathComponent("Adapters/_devicecheck-client/client.py").path, "roundtrip",
                service.base, Team.id, Team.keyId, team.p8.path, try team.token(device), try team.token(device),
                other.path,
            ], executable: URL(fileURLWithPath: try #require(Locations.adapterPython)))
        try #require(outcome.status == 0, "\(outcome)")
        let answers = try JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
        func status(_ step: String) -> Int64? { answers[step]?["status"]?.int64Value }
        func body(_ step: String) -> JSONValue? { answers[step]?["body"] }
        #expect(status("validate") == 200)
        #expect(status("query_before") == 200)
        #expect(body("query_before") == .string("Failed to find bit state"))
        #expect(status("set_bit0") == 200)
        #expect(
            body("query_after_bit0")
                == .object([
                    "bit0": .bool(true), "bit1": .bool(false),
                    "last_update_time": .string(currentMonth),
                ]))
        #expect(status("set_bit1") == 200 && status("clear_bit0") == 200)
        #expect(
            body("query_after_bit1")
                == .object([
                    "bit0": .bool(false), "bit1": .bool(true),
                    "last_update_time": .string(currentMonth),
                ]))
        for step in ["wrong_key", "wrong_team", "unknown_key_id"] {
            #expect(status(step) == 401, "\(step)")
            #expect(body(step) == .string("Unable to verify authorization token"), "\(step)")
        }
    }

    /// curl: the same round trip by hand, and every malformed request gets
    /// an answer while the service stays up.
    @Test(.enabled(if: curlAvailable, "curl not installed (.ci/run installs it)"))
    func curlRoundTripAndMalformedRequests() async throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument])
        defer { service.stop() }
        let device = try team.device("phone")
        let bearer = try await team.jwt()
        let url = service.base + "/v1/"
        #expect(
            try curl(url + "query_two_bits", bearer: bearer, body: request(try team.token(device))) == (200, "Failed to find bit state"))
        #expect(try curl(url + "update_two_bits", bearer: bearer, body: request(try team.token(device), ",\"bit1\":true")) == (200, ""))
        let (status, text) = try curl(url + "query_two_bits", bearer: bearer, body: request(try team.token(device)))
        #expect(status == 200)
        #expect(
            try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                == .object(["bit0": .bool(false), "bit1": .bool(true), "last_update_time": .string(currentMonth)]))
        #expect(try curl(url + "validate_device_token", bearer: bearer, body: request(try team.token(device))) == (200, ""))

        let unauthorized = (401, "Unable to verify authorization token")
        let token = try team.token(device)
        #expect(try curl(url + "query_two_bits", bearer: nil, body: request(token)) == unauthorized)
        #expect(try curl(url + "query_two_bits", bearer: try await team.jwt(age: 3700), body: request(token)) == unauthorized)
        #expect(try curl(url + "query_two_bits", bearer: try await team.jwt(team: "OTHER12345"), body: request(token)) == unauthorized)
        #expect(try curl(url + "query_two_bits", bearer: try await team.jwt(keyId: "UNKNOWN123"), body: request(token)) == unauthorized)
        #expect(
            try curl(url + "query_two_bits", bearer: try await team.jwt(key: P256.Signing.PrivateKey()), body: request(token))
                == unauthorized)
        #expect(try curl(url + "query_two_bits", bearer: "not.a.jwt", body: request(token)) == unauthorized)

        #expect(
            try curl(url + "query_two_bits", bearer: bearer, body: "{not json")
                == (400, "Missing or incorrectly formatted device token payload"))
        #expect(
            try curl(url + "update_two_bits", bearer: bearer, body: request(token, ",\"bit0\":\"yes\""))
                == (400, "Missing or incorrectly formatted bits"))
        #expect(try curl(url + "update_two_bits", bearer: bearer, body: request(token)) == (400, "Missing or incorrectly formatted bits"))
        #expect(
            try curl(
                url + "query_two_bits", bearer: bearer,
                body: "{\"device_token\":\"\(token)\",\"transaction_id\":\"t\",\"timestamp\":\"soon\"}")
                == (400, "Missing or incorrectly formatted time stamp"))
        #expect(
            try curl(url + "query_two_bits", bearer: bearer, body: "{\"device_token\":\"\(token)\",\"timestamp\":1}")
                == (400, "Invalid or missing transaction id"))
        #expect(try curl(url + "query_two_bits", bearer: bearer, body: nil, method: "GET").0 == 405)
        #expect(try curl(service.base + "/v2/nothing", bearer: bearer, body: "{}").0 == 404)
        let large = team.folder.appendingPathComponent("large.json")
        try Data(count: 10 * 1024 * 1024).write(to: large)
        #expect(try curl(url + "query_two_bits", bearer: bearer, body: nil, bodyFile: large).0 == 413)
        // Still serving, state intact.
        #expect(try curl(url + "query_two_bits", bearer: bearer, body: request(try team.token(device))).0 == 200)
        #expect(service.process.isRunning)
    }

    /// 10,000 requests from 8 concurrent clients, two per device each
    /// setting its own bit: no error, no lost update. The figures go to the
    /// README (see the note printed here).
    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func loadFromEightClientsLosesNoUpdate() throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let state = team.folder.appendingPathComponent("bits.json")
        let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument], state: state)
        defer { service.stop() }
        let tokens = try (0..<4).map { try team.token(try team.device("device\($0)")) }
        let outcome = try CLI.run(
            [
                Locations.packageRoot.appendingPathComponent("Adapters/_devicecheck-client/client.py").path, "load",
                service.base, Team.id, Team.keyId, team.p8.path, "10000", "8",
            ] + tokens,
            executable: URL(fileURLWithPath: try #require(Locations.adapterPython)), timeout: 600)
        try #require(outcome.status == 0, "\(outcome)")
        let figures = try JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
        #expect(figures["requests"]?.int64Value == 10_000)
        #expect(figures["errors"]?.int64Value == 0)
        #expect(figures["lost"]?.int64Value == 0)
        print("devicecheck load (debug build): \(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// Killed (SIGKILL) in the middle of updates, the service leaves a state
    /// file that parses, and a restart keeps every acknowledged bit: the
    /// one set before each flood and every update of the floods answered 200.
    @Test(.enabled(if: curlAvailable, "curl not installed (.ci/run installs it)"))
    func stateSurvivesAKillMidWrite() async throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let state = team.folder.appendingPathComponent("bits.json")
        let device = try team.device("phone")
        let bearer = try await team.jwt()
        let acknowledged = LockedList<String>()
        for round in 0..<3 {
            let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument], state: state)
            let url = service.base + "/v1/"
            // An acknowledged update, then a stream of updates cut by the kill.
            #expect(
                try curl(
                    url + "update_two_bits", bearer: bearer,
                    body: request(try team.token(device), ",\"bit0\":\(round % 2 == 0)")) == (200, ""))
            // Other devices: any token Apple's format does not name stands for a device of its own.
            let tokens = (0..<40).map { _ in Data((0..<48).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
            // The flood runs on a dispatch thread, not the cooperative pool,
            // and the wait below sleeps without holding a pool thread: a
            // blocking wait on CI's loaded machine starved the flood, which
            // then had nothing acknowledged before the kill.
            let flooded = DispatchGroup()
            flooded.enter()
            DispatchQueue.global().async {
                for token in tokens
                where (try? curl(url + "update_two_bits", bearer: bearer, body: request(token, ",\"bit1\":true")))?.0 == 200 {
                    acknowledged.append(token)
                }
                flooded.leave()
            }
            // Kill once the flood has had updates acknowledged, however slow the machine.
            let before = acknowledged.items.count
            let deadline = ContinuousClock.now + .seconds(60)
            while acknowledged.items.count < before + 3 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            service.crash()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in flooded.notify(queue: .global()) { done.resume() } }
            let data = try Data(contentsOf: state)
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "round \(round): state file does not parse")
        }
        let service = try LocalDeviceCheck(folder: team.folder, team: Team.id, keys: [team.keyArgument], state: state)
        defer { service.stop() }
        let (status, text) = try curl(service.base + "/v1/query_two_bits", bearer: bearer, body: request(try team.token(device)))
        #expect(status == 200)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))["bit0"] == .bool(true))
        #expect(!acknowledged.items.isEmpty)
        for token in acknowledged.items {
            let (status, text) = try curl(service.base + "/v1/query_two_bits", bearer: bearer, body: request(token))
            #expect(
                status == 200 && (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?["bit1"] == .bool(true),
                "acknowledged update lost: \(status) \(text)")
        }
    }
}

/// `trustsuite device …` as separate processes: concurrent `assert` calls on
/// one key never print the same counter.
@Suite struct DeviceCommandTests {
    @Test func concurrentAssertProcessesNeverShareACounter() throws {
        let team = try Team()
        defer { try? FileManager.default.removeItem(at: team.folder) }
        let state = try team.device("phone")
        let attest = try CLI.run(["device", "attest", "--state", state, "--challenge", "AAEC", "--json"])
        try #require(attest.status == 0, "\(attest)")
        let keyId = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(attest.stdout.utf8))["keyId"]?.stringValue)
        let clientData = try CLI.file("client.json", Array("{}".utf8), in: team.folder)
        let counters = ConcurrentBox()
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            let outcome = try? CLI.run([
                "device", "assert", "--state", state, "--key-id", keyId, "--client-data", clientData.path,
                "--json",
            ])
            let counter = outcome.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.stdout.utf8))["counter"]?.int64Value }
            counters.append(counter ?? -1)
        }
        #expect(counters.values.sorted() == (1...12).map(Int64.init))
        // Refusals name the problem in one line, exit 2.
        let missing = try CLI.run(["device", "assert", "--state", state, "--key-id", "AAAA", "--client-data", clientData.path])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("trustsuite: no key"), "\(missing)")
        let again = try CLI.run(["device", "init", "--state", state, "--app-id", "\(Team.id).x", "--environment", "production"])
        #expect(again.status == 2 && again.stderr.contains("already holds a device"), "\(again)")
        let noDevice = try CLI.run(["device", "ca", "--state", team.folder.appendingPathComponent("none").path])
        #expect(noDevice.status == 2 && noDevice.stderr.contains("no device"), "\(noDevice)")
    }
}

final class ConcurrentBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int64] = []
    func append(_ value: Int64) { lock.lock(); items.append(value); lock.unlock() }
    var values: [Int64] { lock.lock(); defer { lock.unlock() }; return items }
}
