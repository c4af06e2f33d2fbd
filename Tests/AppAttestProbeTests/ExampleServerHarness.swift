import AppAttest
import AppAttestDevice
import AppAttestExampleServer
import AppAttestProbe
import Foundation
import Logging
import TestSupport
import TrustSuiteSupport

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A software device in a fresh folder, and the example server's config for it.
struct ProbeFixture {
    static let appId = "ABCDE12345.org.trustsuite.probe"
    /// A code-directory hash the policy allows (any 32 bytes: the probe sends the allowlist's first entry).
    static let allowedHash = Array(repeating: UInt8(0xCD), count: 32)
    /// A policy with every rule, so every launch-policy check runs.
    static let fullPolicy = LaunchPolicy(
        allowedValidationCategories: [3, 4], minimumBundleVersion: BundleVersion("2.1"),
        missingLaunchData: .reject, allowedCodeDirectoryHashes: [allowedHash])
    static let fullPolicyJSON =
        #"{"allowedValidationCategories": [3, 4], "minimumBundleVersion": "2.1", "missingLaunchData": "reject", "allowedCodeDirectoryHashes": [""#
        + BinaryText.hex(allowedHash) + #""]}"#

    let folder: URL
    let device: SoftwareDevice

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        device = try SoftwareDevice.create(at: folder.appendingPathComponent("device"), appId: Self.appId, environment: .development)
    }

    /// The example server's probe config (docs/probe.md's, with this port and an optional policy).
    static func configText(port: Int, policy: String? = nil, timeout: Double? = nil, acceptedWhen: Bool = true) -> String {
        let extra = (policy.map { ",\n  \"launchPolicy\": \($0)" } ?? "") + (timeout.map { ",\n  \"timeoutSeconds\": \($0)" } ?? "")
        return ProbeConfigText.exampleServer(baseURL: "http://127.0.0.1:\(port)", appId: appId, extra: extra, acceptedWhen: acceptedWhen)
    }

    static func config(port: Int, policy: String? = nil, timeout: Double? = nil, acceptedWhen: Bool = true) throws -> ProbeConfig {
        let text = configText(port: port, policy: policy, timeout: timeout, acceptedWhen: acceptedWhen)
        return try ProbeConfig.parse(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// The example server running in this process on a free loopback port;
/// ``stop()`` cancels it and waits until it has closed its socket.
final class RunningExampleServer: Sendable {
    let port: Int
    let task: Task<Void, any Error>

    private init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }

    static func start(
        device: SoftwareDevice, stateFile: URL?, policy: LaunchPolicy? = nil,
        flaws: Set<ExampleServerFlaw> = [], port: Int = 0
    ) async throws -> RunningExampleServer {
        var configuration = ExampleServer.Configuration(
            port: port, appId: device.appId, environment: device.environment,
            trustAnchors: [try device.testRoots.attestation], stateFile: stateFile,
            launchPolicy: policy)
        configuration.shutdownSignals = []
        // Cancelling the task is how a test stops it: Hummingbird logs that as an error.
        configuration.logLevel = .critical
        configuration.flaws = flaws
        let server = try ExampleServer(configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        // On a thread of its own: tests that block the cooperative pool
        // beside it would otherwise stall its answers past the deadlines.
        let task = Task(executorPreference: DedicatedThreadExecutor.shared) {
            defer { continuation.finish() }
            try await server.run { port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let failure = await task.result
            throw HarnessError("the example server did not start: \(failure)")
        }
        return RunningExampleServer(port: port, task: task)
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// Runs `body` with a server, and stops the server whatever `body` does.
    static func with<T: Sendable>(
        device: SoftwareDevice, stateFile: URL? = nil, policy: LaunchPolicy? = nil,
        flaws: Set<ExampleServerFlaw> = [],
        _ body: (RunningExampleServer) async throws -> T
    ) async throws -> T {
        let server = try await start(device: device, stateFile: stateFile, policy: policy, flaws: flaws)
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }
}
