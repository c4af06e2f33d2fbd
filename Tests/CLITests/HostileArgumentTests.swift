import Foundation
import Testing
import TestSupport

/// Every subcommand, given hostile arguments — huge or non-finite numbers,
/// empty strings, missing files, folders where files belong, unknown values —
/// and binary garbage on stdin, refuses with exit status 2 and one
/// `trustsuite: …` line. Never a trap, never a usage dump.
@Suite struct HostileArgumentTests {
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        var description: String { arguments.joined(separator: " ") }
    }

    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-hostile-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try? Data([0x00, 0xff, 0x13, 0x37]).write(to: url.appendingPathComponent("garbage.bin"))
        // A FIFO with no writer: opening or reading it the ordinary way blocks forever.
        _ = mkfifo(url.appendingPathComponent("fifo").path, 0o600)
        return url
    }()

    static var fifo: String { folder.appendingPathComponent("fifo").path }
    static let characterDevice = "/dev/zero"

    /// Every input file of every command, given a FIFO, a character device
    /// or a directory: refused (exit 2, one line) at once — the audit found
    /// ten CLI paths that hung forever on a FIFO.
    static let nonRegularCases: [Case] = {
        let key = "BOWOXk6zukri6teVMHuZJ4cTbYNy4dfxrpLx2f6N+CztBq6tXqmD7Va2nHemYXqM1HLD0O1Y1lDHVKHpMpCZWh0="
        var all: [[String]] = []
        for path in [fifo, characterDevice, directory] {
            all += [
                [
                    "verify", "attestation", path, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "production",
                    "--time", "2024-01-01T00:00:00Z",
                ],
                [
                    "verify", "attestation", garbage, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "production",
                    "--time", "2024-01-01T00:00:00Z", "--anchor", path,
                ],
                ["verify", "assertion", path, "--public-key", key, "--client-data", garbage, "--app-id", "A.b", "--previous-counter", "0"],
                ["verify", "assertion", garbage, "--public-key", key, "--client-data", path, "--app-id", "A.b", "--previous-counter", "0"],
                ["verify", "receipt", path, "--time", "2024-01-01T00:00:00Z"],
                ["inspect", path], ["cbor", "decode", "--file", path],
                ["keychain", "simulate", "--steps", path], ["right", "simulate", "--steps", path],
                ["probe", "appattest", "--config", path],
            ]
        }
        // A directory is a fine --fixtures value (a folder of vector files); a FIFO or a device is not.
        for path in [fifo, characterDevice] {
            all += [["run", "--fixtures", path, "--only"], ["list", "--fixtures", path, "--only"]]
        }
        return all.map(Case.init)
    }()

    @Test(arguments: nonRegularCases)
    func refusesNonRegularFilesAtOnce(_ hostile: Case) throws {
        // "At once": a read of the FIFO would block until CLI.run's deadline killed it (signaled).
        let outcome = try CLI.run(hostile.arguments, timeout: 20)
        #expect(!outcome.signaled, "\(outcome)")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderrLines.count == 1, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("trustsuite: "), "\(outcome)")
    }

    static var missing: String { folder.appendingPathComponent("does-not-exist").path }
    static var directory: String { folder.path }
    static var garbage: String { folder.appendingPathComponent("garbage.bin").path }
    static let huge = "18446744073709551616000"

    static let cases: [Case] = {
        let key = "BOWOXk6zukri6teVMHuZJ4cTbYNy4dfxrpLx2f6N+CztBq6tXqmD7Va2nHemYXqM1HLD0O1Y1lDHVKHpMpCZWh0="
        let app = "ABCDE12345.org.example.app"
        var all: [[String]] = [
            // run / matrix / list
            ["run", "--family", ""], ["run", "--family", "\u{1}"], ["run", "--fixtures", missing, "--only"],
            ["run", "--fixtures", garbage, "--only"], ["run", "--timeout", huge, "--adapter", "cat"],
            ["run", "--timeout", "-0", "--adapter", "cat"], ["run", "--json", directory], ["run", "--junit", ""],
            ["run", "--adapter", ""], ["run", "--no-such-option"],
            // issue 41: a --skip-flag no vector carries; negative numbers; --max-crashes; --write-expected.
            ["run", "--family", "cbor", "--skip-flag", "ClockTolerence"], ["run", "--timeout", "-5", "--adapter", "cat"],
            ["run", "--max-crashes", "-1", "--adapter", "cat"], ["run", "--max-crashes", huge, "--adapter", "cat"],
            ["run", "--write-expected", directory], ["run", "--write-expected", ""],
            ["matrix", "--family", "cbor", "--skip-flag", "Nope", "--json", missing + ".json"],
            // issue 41: no adapter could start; a bad --baseline, refused before anything runs.
            ["matrix", "--family", "cbor", "--adapter", "broken=exec /nonexistent/trustsuite-adapter", "--json", missing + ".json"],
            ["matrix", "--family", "cbor", "--baseline", garbage, "--json", missing + ".json"],
            ["matrix"], ["matrix", "--adapter", "noequals", "--json", missing + ".json"],
            ["matrix", "--adapter", "=cat", "--json", missing + ".json"], ["matrix", "--markdown", directory],
            ["matrix", "--adapter", "reference=cat", "--json", missing + ".json"], ["matrix", "--timeout", "inf", "--json", missing],
            ["matrix", "--adapters", missing, "--json", missing + ".json"],
            ["matrix", "--adapters", directory, "--json", missing + ".json"],
            ["matrix", "--adapters", garbage, "--json", missing + ".json"],
            ["list", "--fixtures", missing, "--only"], ["list", "--fixtures", directory + "/\u{1}x", "--only"],
            ["list", "--fixtures", garbage, "--only"],
            ["adapter", "--bogus"],
            // verify
            [
                "verify", "attestation", missing, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "production",
                "--time", "2024-01-01T00:00:00Z",
            ],
            [
                "verify", "attestation", directory, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "production",
                "--time", "2024-01-01T00:00:00Z",
            ],
            [
                "verify", "attestation", garbage, "--key-id", "", "--challenge", key, "--app-id", "A.b", "--environment", "production",
                "--time", "2024-01-01T00:00:00Z",
            ],
            [
                "verify", "attestation", garbage, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "staging",
                "--time", "2024-01-01T00:00:00Z",
            ],
            [
                "verify", "attestation", garbage, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "production",
                "--time", "2024-13-45T99:00:00Z",
            ],
            // With --time, so the refusal is the anchor's (a folder), not the missing time's.
            [
                "verify", "attestation", garbage, "--key-id", key, "--challenge", key, "--app-id", "A.b", "--environment", "production",
                "--time", "2024-01-01T00:00:00Z", "--anchor", directory,
            ],
            ["verify", "assertion", garbage, "--public-key", "", "--client-data", garbage, "--app-id", "A.b", "--previous-counter", "0"],
            ["verify", "assertion", garbage, "--public-key", key, "--client-data", missing, "--app-id", "A.b", "--previous-counter", "0"],
            ["verify", "assertion", garbage, "--public-key", key, "--client-data", garbage, "--app-id", "A.b", "--previous-counter", huge],
            ["verify", "assertion", garbage, "--public-key", key, "--client-data", garbage, "--app-id", "A.b", "--previous-counter", "-1"],
            ["verify", "receipt", missing, "--time", "2024-01-01T00:00:00Z"],
            ["verify", "receipt", garbage, "--time", ""],
            ["verify", "receipt", garbage, "--time", "2024-01-01T00:00:00Z", "--max-age", huge],
            ["verify", "receipt", garbage, "--time", "2024-01-01T00:00:00Z", "--max-age", "nan"],
            ["verify", "receipt", garbage, "--time", "2024-01-01T00:00:00Z", "--max-age", "-5"],
            ["verify", "receipt", garbage, "--time", "99999-01-01T00:00:00Z"],
            // inspect / generate
            ["inspect", missing], ["inspect", directory], ["inspect", ""],
            ["generate", "app-attest", "--seed", huge], ["generate", "app-attest", "--seed", "-1"],
            ["generate", "app-attest", "--out", garbage], ["generate", "app-attest", "--out", ""],
            ["run", "--hostile-trust-store"],
            ["generate", "real-app-attest", "--external", missing, "--out", garbage], ["generate", "real-app-attest", "--out", ""],
            ["generate", "real-app-attest", "--external", ""], ["generate", "real-app-attest", "--external", directory, "--out", garbage],
            // device
            ["device", "init", "--state", "", "--app-id", "ABCDE12345.org.example.app", "--environment", "production"],
            ["device", "init", "--state", garbage, "--app-id", "ABCDE12345.org.example.app", "--environment", "production"],
            ["device", "init", "--state", missing + "/x", "--app-id", "", "--environment", "production"],
            ["device", "init", "--state", missing + "/y", "--app-id", "A.b", "--environment", "staging"],
            ["device", "init", "--state", missing + "/z", "--app-id", "A.b", "--environment", "production", "--seed", huge],
            ["device", "ca", "--state", ""], ["device", "ca", "--state", missing],
            ["device", "attest", "--state", missing, "--challenge", key],
            ["device", "attest", "--state", directory, "--challenge", "not base64!"],
            ["device", "attest", "--state", missing, "--challenge", key, "--validation-category", huge],
            ["device", "assert", "--state", missing, "--key-id", key, "--client-data", garbage],
            ["device", "assert", "--state", directory, "--key-id", key, "--client-data", missing],
            ["device", "devicecheck-token", "--state", missing], ["device", "devicecheck-token", "--state", ""],
            // issue 41: a missing parent is refused (not created), a file where the parent belongs too,
            // and Foundation's errors come out as one line with the system's reason.
            [
                "device", "init", "--state", missing + "/nested/phone", "--app-id", "ABCDE12345.org.example.app", "--environment",
                "production",
            ],
            ["device", "init", "--state", garbage + "/phone", "--app-id", "ABCDE12345.org.example.app", "--environment", "production"],
            [
                "device", "init", "--state", "/proc/trustsuite-hostile-phone", "--app-id", "ABCDE12345.org.example.app",
                "--environment", "production",
            ],
            ["generate", "app-attest", "--out", garbage + "/vectors"], ["generate", "app-attest", "--out", "/proc/trustsuite-hostile"],
            // serve (each refused before it listens)
            ["serve", "devicecheck", "--port", huge, "--team", "T", "--key", "K=" + garbage],
            ["serve", "devicecheck", "--port", "-1", "--team", "T", "--key", "K=" + garbage],
            ["serve", "devicecheck", "--port", "0", "--team", "", "--key", "K=" + garbage],
            ["serve", "devicecheck", "--port", "0", "--team", "T"],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "nokeyid"],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + missing],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + directory],
            ["serve", "developer-token", "--team", "T", "--key", "K=" + missing],
            ["serve", "developer-token", "--team", "T", "--key", "K=" + garbage],
            // acl / keychain / right
            ["acl", "evaluate", "--operation", "useItem", "--protection", ""],
            ["acl", "evaluate", "--operation", "useItem", "--flags", "biometryAny,,nope"],
            ["acl", "evaluate", "--operation", "useItem", "--device", "{\"locked\": 7}"],
            ["acl", "evaluate", "--operation", "useItem", "--device", "not json"],
            ["acl", "evaluate", "--operation", "useItem", "--events", "explode"],
            ["acl", "evaluate", "--operation", "useItem", "--evidence", "[1e999]"],
            ["acl", "evaluate", "--operation", ""],
            ["acl", "explain", "--flags", "biometryAny,nope"], ["acl", "explain", "--protection", "zz"],
            ["keychain", "simulate", "--steps", missing], ["keychain", "simulate", "--steps", directory],
            ["keychain", "simulate", "--steps", garbage], ["keychain", "simulate", "--steps", ""],
            ["right", "simulate", "--steps", missing], ["right", "simulate", "--steps", directory],
            ["right", "simulate", "--steps", garbage], ["right", "simulate", "--steps", garbage, "--requirement", "face"],
            // serve devicecheck (its state paths that exist but cannot be written: DeviceCheckAbuseTests)
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage, "--state", ""],
            ["probe", "appattest"], ["probe", "appattest", "--config", missing], ["probe", "appattest", "--config", garbage],
            ["probe", "appattest", "--config", garbage, "--only", ""], ["probe", "appattest", "--config", ""],
            ["serve", "appattest", "--port", huge, "--app-id", app, "--environment", "development"],
            ["serve", "appattest", "--port", "0", "--app-id", app, "--environment", "staging"],
            ["serve", "appattest", "--port", "0", "--app-id", app, "--environment", "development", "--anchor", garbage],
            ["serve", "appattest", "--port", "0", "--app-id", app, "--environment", "development", "--anchor", missing],
            ["serve", "appattest", "--port", "0", "--app-id", app, "--environment", "development", "--anchor", garbage, "--state", ""],
            // issue 41: an App ID that is not TEAMID.bundle.id is refused before the server listens.
            ["serve", "appattest", "--port", "0", "--app-id", "A", "--environment", "development"],
            ["serve", "appattest", "--port", "0", "--app-id", "abcde12345.org.example", "--environment", "development"],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage, "--idle-timeout", "0"],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage, "--header-timeout", "nan"],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage, "--body-timeout", "-1"],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage, "--shutdown-grace", huge],
            ["serve", "devicecheck", "--port", "0", "--team", "T", "--key", "K=" + garbage],
            // cbor
            ["cbor", "decode", "--hex", "zz"], ["cbor", "decode", "--hex", "0"], ["cbor", "decode", "--file", missing],
            ["cbor", "decode", "--file", directory], ["cbor", "decode", "--mode", "lenient", "--hex", "00"],
            ["cbor", "decode", "--hex", "00", "--file", garbage],
            ["cbor", "decode", "--max-depth", "0", "--hex", "00"], ["cbor", "decode", "--max-depth", "10001", "--hex", "00"],
            ["cbor", "decode", "--max-depth", huge, "--hex", "00"], ["cbor", "decode", "--max-depth", "-1", "--hex", "00"],
            ["cbor", "decode", "--max-depth", "", "--lines"],
            // no subcommand / unknown subcommand
            ["frobnicate"], [""],
        ]
        all.append([
            "verify", "assertion", garbage, "--public-key", key, "--client-data", directory, "--app-id", "", "--previous-counter", "0",
        ])
        return all.map(Case.init)
    }()

    /// Every subcommand path of `trustsuite --help` (and of each group's
    /// `--help`), e.g. `device attest`.
    static func subcommands(_ path: [String] = []) throws -> [[String]] {
        let help = try CLI.run(path + ["--help"]).stdout
        guard let start = help.range(of: "SUBCOMMANDS:") else { return path.isEmpty ? [] : [path] }
        var found: [[String]] = []
        // Names sit two spaces in, one per line; wrapped descriptions further in; a blank line ends the list.
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }
            found += try subcommands(path + [String(name)])
        }
        return found
    }

    /// A subcommand without a hostile-argument row fails here: adding one
    /// means adding its rows.
    @Test func everySubcommandHasARow() throws {
        let paths = try Self.subcommands()
        #expect(paths.count >= 15, "\(paths)")
        for path in paths {
            #expect(
                Self.cases.contains { Array($0.arguments.prefix(path.count)) == path },
                "no hostile-argument row for `\(path.joined(separator: " "))`")
        }
    }

    @Test(arguments: cases)
    func refusesWithOneLine(_ hostile: Case) throws {
        let garbageStdin = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        let outcome = try CLI.run(hostile.arguments, stdin: garbageStdin, timeout: 60)
        #expect(!outcome.signaled, "\(outcome)")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderrLines.count == 1, "\(outcome)")
        #expect(outcome.stderr.hasPrefix("trustsuite: "), "\(outcome)")
    }

    /// Eight `device init` on one folder at once: exactly one creates the
    /// device, the seven others are refused with one line (the audit saw all
    /// eight report "device created").
    @Test func concurrentDeviceInitHasOneWinner() throws {
        let state = Self.folder.appendingPathComponent("race-\(UUID().uuidString)").path
        let arguments = ["device", "init", "--state", state, "--app-id", "ABCDE12345.org.example.app", "--environment", "production"]
        let outcomes = LockedList<CLI.Outcome>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let outcome = try? CLI.run(arguments, timeout: 60) { outcomes.append(outcome) }
        }
        let all = outcomes.items
        #expect(all.count == 8)
        #expect(all.filter { $0.status == 0 }.count == 1, "\(all)")
        #expect(all.filter { $0.status == 2 && $0.stderr.contains("already holds a device") }.count == 7, "\(all)")
        // No temporary file (each holds the CA's private keys) is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
        // A killed writer's temporary file (its pid no longer runs) is removed
        // when the device is next opened; a live writer's is kept.
        let stale = state + "/.device.json.2147483646.7.tmp", live = state + "/.device.json.\(getpid()).7.tmp"
        for path in [stale, live] {
            _ = FileManager.default.createFile(atPath: path, contents: Data([1]), attributes: [.posixPermissions: 0o600])
        }
        #expect(try CLI.run(["device", "ca", "--state", state]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    /// Garbage on stdin where stdin is the input is a verdict, not a usage error: exit 1, one line.
    @Test func garbageInputOnStdinIsAVerdict() throws {
        let garbage = Data([0xff, 0xfe, 0x1c, 0x00, 0x9f])
        let outcome = try CLI.run(["cbor", "decode"], stdin: garbage)
        #expect(!outcome.signaled)
        #expect(outcome.status == 1, "\(outcome)")
        let lines = try CLI.run(["cbor", "decode", "--lines"], stdin: garbage + Data("\n00\n".utf8))
        #expect(!lines.signaled)
        #expect(lines.stdout.split(separator: "\n").count == 2, "\(lines)")
        // An empty hex string is an empty input: truncated, a verdict.
        let empty = try CLI.run(["cbor", "decode", "--hex", ""])
        #expect(empty.status == 1 && empty.stderr.contains("truncated"), "\(empty)")
    }
}

/// A list appended to from several threads.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []
    func append(_ element: Element) { lock.withLock { storage.append(element) } }
    var items: [Element] { lock.withLock { storage } }
}
