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
    /// `--wait-ready SECONDS`: how long the first challenge request is
    /// retried (with back-off) before the server is declared unreachable;
    /// nil: one try (docs/probe.md, Readiness).
    public var waitReadySeconds: Double? = nil
    /// Longest `--wait-ready` accepted (as `timeoutSeconds`: a typo must not hold a CI job for hours).
    public static let maxWaitReadySeconds = 600.0
    /// The clock `--wait-ready`'s bound and back-off are measured and slept
    /// on: the process's continuous clock, or a test's own (issue 50).
    public var clock = ProbeClock(ContinuousClock())

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
            try await waitUntilReady(session)
        } catch {
            await client.shutdown()
            throw error
        }
        var results: [ProbeResult] = []
        for (index, check) in checks.enumerated() {
            let result: ProbeResult
            if let failed = check.dependsOn.lazy.compactMap({ id in results.first { $0.check.id == id && $0.grade != .pass } }).first {
                result = ProbeResult(
                    check: check, grade: .notRun, message: "notRun (baseline failed): \(failed.check.id) did not pass", exchanges: [],
                    seconds: 0)
            } else {
                result = await Self.run(check, session: session)
            }
            results.append(result)
            progress(result, index + 1, checks.count)
        }
        await client.shutdown()
        return ProbeReport(
            target: config.baseURL.absoluteString, results: results, seconds: (ContinuousClock.now - start).seconds,
            appId: config.appId)
    }

    /// Asks for a challenge until one comes: once without `waitReadySeconds`,
    /// else retried with back-off (0.1 s doubling to 1 s) until that many
    /// seconds have passed since the first try; then the server is unreachable.
    func waitUntilReady(_ session: ProbeSession) async throws(ProbeError) {
        let start = clock.now()
        let limit = waitReadySeconds.map { Duration.milliseconds(Int64(min(max($0, 0), Self.maxWaitReadySeconds) * 1000)) }
        var pause = Duration.milliseconds(100)
        var attempts = 0
        while true {
            attempts += 1
            let failure: ProbeStepFailure
            do {
                _ = try await session.challenge()
                return
            } catch {
                failure = error
            }
            let request = failure.exchange.map { $0.request.method + " " + $0.request.path + ": " } ?? ""
            // Retried: no answer (nothing listens yet, a reset, a timeout) or a 5xx (starting up).
            // An answer below 500 is the server's word: a wrong path or pointer does not heal by waiting.
            var retryable = true
            if case .answered(let status, _, _)? = failure.exchange?.response, status < 500 { retryable = false }
            guard let limit, retryable else {
                throw ProbeError(
                    .serverUnreachable,
                    "the server at \(config.baseURL.absoluteString) did not give a challenge: \(request)\(failure.message)")
            }
            let elapsed = clock.now() - start
            guard elapsed + pause <= limit else {
                let seconds = waitReadySeconds.map { String(format: "%g", $0) } ?? "0"
                throw ProbeError(
                    .serverUnreachable,
                    "the server at \(config.baseURL.absoluteString) did not give a challenge within --wait-ready \(seconds) s "
                        + "(\(attempts) \(attempts == 1 ? "try" : "tries")); the last: \(request)\(failure.message)")
            }
            await clock.sleep(pause)
            pause = min(pause * 2, .seconds(1))
        }
    }

    static func run(_ check: ProbeCheck, session: ProbeSession) async -> ProbeResult {
        let start = ContinuousClock.now
        let first = session.log.count
        let grade: ProbeGrade
        let message: String
        do {
            let judged = try await check.body(session)
            (grade, message) = ProbeResult.grade(check, judged: judged) { exchange in
                exchange.request.kind == .assert ? session.config.assert : session.config.attest
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

/// The clock the probe's waits are measured and slept on: any `Clock`
/// counting in `Duration` (the continuous clock, or a test's own).
public struct ProbeClock: Sendable {
    /// The time since the clock was given.
    let now: @Sendable () -> Duration
    /// Sleeps that long on it (a cancelled sleep ends at once).
    let sleep: @Sendable (Duration) async -> Void

    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try? await clock.sleep(for: $0) }
    }
}
