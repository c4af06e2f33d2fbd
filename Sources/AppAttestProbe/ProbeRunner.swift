import AppAttest
import AppAttestDevice
import Foundation

/// Runs the checks against a server (docs/probe.md): refuses a non-loopback
/// target unless allowed, makes sure the server answers a challenge request
/// before anything else (else the probe could not run: exit 2), then runs
/// each check in order and grades it.
public struct ProbeRunner: Sendable {
    public let config: ProbeConfig
    public let device: SoftwareDevice
    /// Check ids to run (empty: all that apply).
    public var only: [String] = []
    public var allowRemote = false

    public init(config: ProbeConfig, device: SoftwareDevice) {
        self.config = config
        self.device = device
    }

    /// The checks this run will do, in order; an unknown `only` id is an error.
    public func selectedChecks() throws(ProbeError) -> [ProbeCheck] {
        let checks = ProbeCatalog.checks(for: config)
        guard !only.isEmpty else { return checks }
        let known = Set(checks.map(\.id))
        if let unknown = only.first(where: { !known.contains($0) }) {
            let why = ProbeCatalog.allIds.contains(unknown) ? " (the config declares no launch policy rule for it)" : ""
            throw ProbeError(.unknownCheck, "--only \(unknown): no such check\(why); checks: \(checks.map(\.id).joined(separator: ", "))")
        }
        return checks.filter { only.contains($0.id) }
    }

    /// Checks the target may be probed at all (loopback unless allowed).
    public func checkTarget() throws(ProbeError) {
        guard allowRemote || config.isLoopback else {
            throw ProbeError(
                .remoteRefused,
                "baseURL \(config.baseURL.absoluteString) is not a loopback address; "
                    + "the probe sends forged requests only to 127.0.0.0/8, ::1 or localhost unless --allow-remote is given")
        }
    }

    /// Runs the selected checks; `progress` gets each result as it is graded.
    public func run(progress: @escaping @Sendable (ProbeResult, Int, Int) -> Void = { _, _, _ in }) async throws(ProbeError) -> ProbeReport
    {
        try checkTarget()
        guard device.appId == config.appId, device.environment == config.environment else {
            throw ProbeError(
                .device,
                "the device in \(device.stateDirectory.path) is for \(device.appId) (\(device.environment.rawValue)); "
                    + "the config says \(config.appId) (\(config.environment.rawValue))")
        }
        let checks = try selectedChecks()
        let client = ProbeHTTPClient(baseURL: config.baseURL, timeoutSeconds: config.timeoutSeconds)
        let session = ProbeSession(config: config, client: client, device: device)
        let start = ContinuousClock.now
        // The server must answer a challenge request before any check runs.
        do {
            _ = try await session.challenge()
        } catch {
            await client.shutdown()
            let request = error.exchange.map { $0.request.method + " " + $0.request.path + ": " } ?? ""
            throw ProbeError(
                .serverUnreachable, "the server at \(config.baseURL.absoluteString) did not give a challenge: \(request)\(error.message)")
        }
        var results: [ProbeResult] = []
        for (index, check) in checks.enumerated() {
            let result = await Self.run(check, session: session)
            results.append(result)
            progress(result, index + 1, checks.count)
        }
        await client.shutdown()
        return ProbeReport(target: config.baseURL.absoluteString, results: results, seconds: (ContinuousClock.now - start).seconds)
    }

    static func run(_ check: ProbeCheck, session: ProbeSession) async -> ProbeResult {
        let start = ContinuousClock.now
        let first = session.log.count
        let grade: ProbeGrade
        let message: String
        do {
            let judged = try await check.body(session)
            (grade, message) = ProbeResult.grade(check, judged: judged) { exchange in
                let endpoint = exchange.request.kind == .assert ? session.config.assert : session.config.attest
                return (endpoint.accepted, endpoint.refused)
            }
        } catch {
            (grade, message) = (.error, error.message)
        }
        return ProbeResult(
            check: check, grade: grade, message: message, exchanges: session.log.since(first),
            seconds: (ContinuousClock.now - start).seconds)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
