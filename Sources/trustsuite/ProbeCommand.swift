import AppAttest
import AppAttestDevice
import AppAttestProbe
import ArgumentParser
import Foundation
import TrustSuiteSupport

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Probe a running server: the software device drives it through conformance checks over HTTP.",
        subcommands: [ProbeAppAttestCommand.self]
    )
}

/// `trustsuite probe appattest` (docs/probe.md): a thin layer over
/// `AppAttestProbe`: reads the config, opens or makes the device, runs,
/// prints the scorecard and writes the reports.
struct ProbeAppAttestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appattest",
        abstract: "Check an App Attest server: what it accepts and refuses (docs/probe.md).",
        discussion: """
            The server runs in test mode, trusting the device's test root (`trustsuite device ca --state DIR \
            --attestation`) instead of Apple's. The config (JSON, docs/probe.md) says how to fetch a challenge \
            and how to send attestations and assertions. --state is the device's folder: a device there is used \
            (it must have the config's appId and environment); an empty or new folder gets a new device. \
            Without --state a new device is made in a temporary folder and removed after the run. \
            Requests go only to baseURL, which must be loopback unless --allow-remote. Exit status: 0 every \
            check passed; 1 any did not (accepted what must be refused, refused what must be accepted, or an \
            error such as a timeout, or checks not run because the baseline failed); 2 the probe could not run \
            (bad config, server unreachable at the start). --wait-ready SECONDS retries the first challenge \
            request (back-off 0.1 s to 1 s) until the server answers or SECONDS pass, so a script may start the \
            server and the probe together; a try under way when SECONDS pass is let finish, so the wait ends at \
            most one timeoutSeconds after them.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The probe config (JSON, docs/probe.md).", valueName: "file"))
    var config: String

    @Option(name: .long, help: ArgumentHelp("The software device's folder (made when it holds none).", valueName: "dir"))
    var state: String?

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Run only this check (repeatable).", valueName: "id"))
    var only: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write the JSON report here.", valueName: "file"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp("Write a JUnit XML report here.", valueName: "file"))
    var junit: String?

    @Option(name: .long, help: ArgumentHelp("Write a Markdown report here.", valueName: "file"))
    var markdown: String?

    @Option(name: .long, help: ArgumentHelp("Write a SARIF 2.1.0 log here.", valueName: "file"))
    var sarif: String?

    @Option(
        name: .customLong("wait-ready"),
        help: ArgumentHelp(
            "Wait up to this many seconds for the server to give its first challenge (retried with back-off; at most 600; "
                + "plus at most one timeoutSeconds for the try under way).",
            valueName: "seconds"))
    var waitReady: Double?

    @Flag(name: .long, help: "Allow a baseURL that is not loopback (the probe sends forged objects).")
    var allowRemote = false

    @Flag(name: .long, help: "No progress lines on stderr.")
    var quiet = false

    func validate() throws {
        if let waitReady {
            guard waitReady.isFinite, waitReady > 0, waitReady <= ProbeRunner.maxWaitReadySeconds else {
                throw ValidationError(
                    "--wait-ready must be a number of seconds, more than 0 and at most \(Int(ProbeRunner.maxWaitReadySeconds))")
            }
        }
    }

    func run() async throws {
        for path in [json, junit, markdown, sarif].compactMap({ $0 }) { try OutputFile.check(path) }
        let probeConfig: ProbeConfig
        do {
            probeConfig = try ProbeConfig.load(path: config)
        } catch let error as ProbeConfigErrors {
            for line in error.errors.dropLast() { Console.note(line.description) }
            throw CLIError(error.errors.last?.description ?? "bad config")
        }
        var runner = ProbeRunner(config: probeConfig, device: try openDevice(probeConfig))
        defer { if state == nil { try? FileManager.default.removeItem(at: runner.device.stateDirectory.deletingLastPathComponent()) } }
        runner.only = only
        runner.allowRemote = allowRemote
        runner.waitReadySeconds = waitReady
        let progress = !quiet && isatty(STDERR_FILENO) == 1
        var report: ProbeReport
        do {
            report = try await runner.run { result, done, total in
                guard progress else { return }
                FileHandle.standardError.write(Data("[\(done)/\(total)] \(result.check.id): \(result.grade.rawValue)\n".utf8))
            }
        } catch {
            throw CLIError(error.description)
        }
        report.configFile = config
        print(report.scorecard())
        if let json { try OutputFile.write(report.json(), to: json) }
        if let junit { try OutputFile.write(report.junit(), to: junit) }
        if let markdown { try OutputFile.write(report.markdown(), to: markdown) }
        if let sarif { try OutputFile.write(report.sarif(), to: sarif) }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    /// The device in --state (made there when missing), or a new one in a temporary folder.
    func openDevice(_ config: ProbeConfig) throws -> SoftwareDevice {
        do {
            guard let state else {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-probe-\(UUID().uuidString)")
                return try SoftwareDevice.create(
                    at: folder.appendingPathComponent("device"), appId: config.appId,
                    environment: config.environment)
            }
            let url = URL(fileURLWithPath: state)
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("device.json").path) {
                return try SoftwareDevice(stateDirectory: url)
            }
            let device = try SoftwareDevice.create(at: url, appId: config.appId, environment: config.environment)
            Console.note("made a device in \(state); the server must trust its root: trustsuite device ca --state \(state) --attestation")
            return device
        } catch let error as DeviceError {
            throw CLIError("device: \(error.description)")
        }
    }
}
