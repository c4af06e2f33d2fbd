import ConformanceKit
import Crypto
import VectorContract
import Foundation
import TrustSuiteSupport

/// Where the project's own vectors live and how files are gathered for a run.
enum FixtureLocator {
    /// The built-in vectors' folder and how it was found, in one order
    /// (issue 61, item 6; docs/commands.md): `TRUSTSUITE_FIXTURES`; else
    /// `Fixtures` beside the binary (the release archive of
    /// scripts/release.sh); else the `Fixtures` of the source checkout the
    /// binary was built in, only when the binary lies inside that checkout
    /// (`swift run`, `.build/…/trustsuite`). Never the working directory:
    /// a folder holding a trimmed `Fixtures/` made a run grade other
    /// vectors than the suite's. Never a build path a binary moved elsewhere
    /// names: another user can make that folder.
    static func defaultFolder() -> (path: String, origin: String)? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TRUSTSUITE_FIXTURES"], !path.isEmpty { return (path, "TRUSTSUITE_FIXTURES=\(path)") }
        guard let binary = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let beside = binary.deletingLastPathComponent().appendingPathComponent("Fixtures").path
        if FileManager.default.fileExists(atPath: beside) { return (beside, "\(beside) (beside the binary)") }
        let root = Checkout.root.standardizedFileURL.path
        guard binary.standardizedFileURL.path.hasPrefix(root + "/") else { return nil }
        let checkout = Checkout.path("Fixtures").path
        return FileManager.default.fileExists(atPath: checkout) ? (checkout, "\(checkout) (the source checkout)") : nil
    }

    /// Loads the built-in fixtures (unless `onlyGiven`) plus the given paths,
    /// keeping the vectors of `families` (all when empty), and says where they came from.
    static func load(extra: [String], onlyGiven: Bool, families: [Family]) throws -> (files: [VectorFile], origins: [String]) {
        var paths: [String] = []
        var origins: [String] = []
        if !onlyGiven {
            guard let folder = defaultFolder() else {
                throw CLIError(
                    "cannot find the built-in Fixtures folder (not beside the binary, not in a checkout it was built in): "
                        + "set TRUSTSUITE_FIXTURES, or pass --only with --fixtures PATH")
            }
            paths.append(folder.path)
            origins.append(folder.origin)
        }
        paths += extra
        origins += extra.map { "\($0) (--fixtures)" }
        guard !paths.isEmpty else { throw CLIError("no vector files given (--only needs --fixtures PATH)") }
        let files = try VectorLoader.load(paths: paths)
        return (families.isEmpty ? files : files.filter { families.contains($0.family) }, origins)
    }

    /// The run's ``VectorSource``: each file's SHA-256 and name, in name
    /// order, hashed once more. A file that cannot be read again is hashed
    /// as its name alone (it was read a moment ago).
    static func source(_ files: [VectorFile], origins: [String]) -> VectorSource {
        func hex(_ bytes: Data) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
        let lines = files.map { file in
            (name: (file.path as NSString).lastPathComponent, digest: hex(FileManager.default.contents(atPath: file.path) ?? Data()))
        }
        .sorted { ($0.name, $0.digest) < ($1.name, $1.digest) }
        .map { "\($0.digest) \($0.name)\n" }
        let all = hex(Data(lines.joined().utf8))
        return VectorSource(origins: origins, files: files.count, sha256: all)
    }
}

/// The CLI's one refusal channel: a command or a helper throws it, and
/// `TrustSuiteCommand.main` prints it as one `trustsuite: …` line and exits
/// with `status` (2, a usage or environment problem, unless said otherwise).
/// Nothing below `main` calls `exit()`.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let status: Int32
    init(_ description: String, status: Int32 = 2) {
        self.description = description
        self.status = status
    }
}
