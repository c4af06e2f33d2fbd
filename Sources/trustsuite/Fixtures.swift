import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport

/// Where the project's own vectors live and how files are gathered for a run.
enum FixtureLocator {
    /// `TRUSTSUITE_FIXTURES`, else `./Fixtures`, else `Fixtures` beside the
    /// binary (the release archive of scripts/release.sh), else the Fixtures
    /// folder of the source checkout this binary was built from.
    static func defaultFolder() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TRUSTSUITE_FIXTURES"], !path.isEmpty { return path }
        let local = FileManager.default.currentDirectoryPath + "/Fixtures"
        if FileManager.default.fileExists(atPath: local) { return "Fixtures" }
        if let binary = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let beside = binary.deletingLastPathComponent().appendingPathComponent("Fixtures").path
            if FileManager.default.fileExists(atPath: beside) { return beside }
        }
        let checkout = Checkout.path("Fixtures").path
        return FileManager.default.fileExists(atPath: checkout) ? checkout : nil
    }

    /// Loads the built-in fixtures (unless `onlyGiven`) plus the given paths,
    /// keeping the vectors of `families` (all when empty).
    static func load(extra: [String], onlyGiven: Bool, families: [Family]) throws -> [VectorFile] {
        var paths: [String] = []
        if !onlyGiven {
            guard let folder = defaultFolder() else {
                throw CLIError(
                    "cannot find the Fixtures folder: run from the project root, "
                        + "set TRUSTSUITE_FIXTURES, or pass --only with --fixtures PATH")
            }
            paths.append(folder)
        }
        paths += extra
        guard !paths.isEmpty else { throw CLIError("no vector files given (--only needs --fixtures PATH)") }
        let files = try VectorLoader.load(paths: paths)
        return families.isEmpty ? files : files.filter { families.contains($0.family) }
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
