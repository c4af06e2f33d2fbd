import AppAttest
import Benchmark
import Crypto
import DeviceCheckService
import Foundation

// `serve devicecheck` under load (issue 22 item 4): update_two_bits from 8
// concurrent keep-alive clients over loopback HTTP, with a state file
// already holding 0 or 200,000 devices. Each iteration is 1,000 updates
// (125 a client, each to a random stored device), so with scalingFactor
// .kilo ordo-one's throughput is updates per second.
//   swift package --package-path Benchmarks benchmark --target DeviceCheckServiceBenchmarks
let benchmarks: @Sendable () -> Void = {
    for devices in [0, 200_000] {
        let load = ServiceLoad(storedDevices: devices)
        Benchmark(
            "DeviceCheck update_two_bits, 8 clients, \(devices) stored devices",
            configuration: .init(
                metrics: [.wallClock, .throughput], scalingFactor: .kilo,
                maxDuration: .seconds(30), maxIterations: 15),
            closure: { _ in try load.updates(ServiceLoad.perIteration) },
            setup: { try await load.start() },
            teardown: { await load.stop() })
    }
}

/// One service with its state file, and the clients' tokens.
final class ServiceLoad: @unchecked Sendable {
    static let clients = 8
    static let perIteration = 1000
    static let team = "TEAM123456", keyId = "KEY1234567"

    let storedDevices: Int
    private var folder: URL?
    private var task: Task<Void, any Error>?
    private var port = 0
    private var bearer = ""
    private var deviceIds: [[UInt8]] = []
    private var counted = (updates: 0, seconds: 0.0)

    init(storedDevices: Int) { self.storedDevices = storedDevices }

    /// Writes a state file of `storedDevices` devices (the round-2 snapshot
    /// format the service reads), starts the service on a free port with it
    /// and mints an ES256 developer token.
    func start() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("devicecheck-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder
        var generator = SystemRandomNumberGenerator()
        deviceIds = (0..<max(storedDevices, 1000)).map { _ in (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        struct Snapshot: Encodable {
            var format = "trustsuite-devicecheck-state/1"
            var devices: [String: DeviceCheckServer.State] = [:]
        }
        var snapshot = Snapshot()
        for id in deviceIds.prefix(storedDevices) {
            snapshot.devices["\(Self.team)\u{0}device:\(Data(id).base64EncodedString())"] =
                DeviceCheckServer.State(bit0: true, bit1: false, month: "2026-10")
        }
        let stateFile = folder.appendingPathComponent("bits.json")
        try JSONEncoder().encode(snapshot).write(to: stateFile)
        if storedDevices == 0 { deviceIds = Array(deviceIds.prefix(1000)) }

        let key = P256.Signing.PrivateKey()
        let service = try await DeviceCheckService(
            .init(
                port: 0, team: Self.team,
                keys: [DeveloperKey(keyId: Self.keyId, publicKey: key.publicKey)],
                stateFile: stateFile))
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        task = Task { try await service.run { continuation.yield($0) } }
        for await bound in ports {
            port = bound
            break
        }
        bearer = try await DeveloperTokens.make(team: Self.team, keyId: Self.keyId, key: key)
        counted = (0, 0)
    }

    /// `count` updates spread over the clients, each on its own thread with
    /// one keep-alive connection; throws on any answer but 200.
    func updates(_ count: Int) throws {
        let started = ContinuousClock.now
        let failures = FailureBox()
        let each = count / Self.clients
        let (port, bearer, ids) = (port, bearer, deviceIds)
        // One thread per client (concurrentPerform would run only as many as there are cores).
        let done = DispatchGroup()
        for client in 0..<Self.clients {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                do {
                    let connection = try LoopbackClient(port: port)
                    for index in 0..<each {
                        let id = ids[Int.random(in: 0..<ids.count)]
                        let body =
                            "{\"device_token\":\"\(DeviceCheckToken.mint(deviceId: id))\",\"transaction_id\":\"t\(index)\","
                            + "\"timestamp\":\(Int(Date().timeIntervalSince1970 * 1000)),\"bit\(index % 2)\":\(client % 2 == 0)}"
                        let status = try connection.post("/v1/update_two_bits", bearer: bearer, body: body)
                        if status != 200 { failures.add("status \(status)") }
                    }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        done.wait()
        if let first = failures.first { throw LoopbackClient.Failure(description: "\(failures.count) failed updates, first: \(first)") }
        let elapsed = ContinuousClock.now - started
        counted.updates += each * Self.clients
        counted.seconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    func stop() async {
        task?.cancel()
        _ = await task?.result
        if let folder { try? FileManager.default.removeItem(at: folder) }
        if counted.seconds > 0 {
            print(
                "devicecheck, \(storedDevices) stored devices: \(counted.updates) updates in "
                    + String(format: "%.2f s = %.0f updates/s", counted.seconds, Double(counted.updates) / counted.seconds))
        }
    }
}

final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var first: String? { lock.withLock { items.first } }
    var count: Int { lock.withLock { items.count } }
}
