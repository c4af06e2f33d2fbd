import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport

/// Paths of the checkout, its fixtures and the external conformance data.
public enum Locations {
    /// The package root (``Checkout/root``).
    public static var packageRoot: URL { Checkout.root }

    public static var fixtures: URL { packageRoot.appendingPathComponent("Fixtures") }
    public static var fuzz: URL { packageRoot.appendingPathComponent("Fuzz") }

    /// The Python of the adapters' virtual environment (made by .ci/run):
    /// `TRUSTSUITE_ADAPTER_PYTHON`, else `.venv-adapters/bin/python`.
    public static var adapterPython: String? {
        if let path = ProcessInfo.processInfo.environment["TRUSTSUITE_ADAPTER_PYTHON"], !path.isEmpty { return path }
        let path = packageRoot.appendingPathComponent(".venv-adapters/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    public static let adapterPythonMissingReason =
        "no adapter virtual environment: run `python3 -m venv .venv-adapters && .venv-adapters/bin/pip install -r Adapters/requirements.txt` (as .ci/run does) or set TRUSTSUITE_ADAPTER_PYTHON"

    /// `TRUSTSUITE_EXTERNAL_VECTORS`, else `../shared/vectors` beside the checkout.
    public static var externalVectors: URL {
        if let path = ProcessInfo.processInfo.environment["TRUSTSUITE_EXTERNAL_VECTORS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }

    /// Whether the external data is there; tests that need it are disabled
    /// with ``externalMissingReason`` otherwise.
    public static var externalAvailable: Bool {
        FileManager.default.fileExists(atPath: externalVectors.path)
    }

    public static var externalMissingReason: String {
        "external vectors not found at \(externalVectors.path): set TRUSTSUITE_EXTERNAL_VECTORS to the shared/vectors folder"
    }

    /// An external file's bytes, or nil when absent.
    public static func external(_ relative: String) -> Data? {
        try? Data(contentsOf: externalVectors.appendingPathComponent(relative))
    }

    /// Every file in a folder (sorted), or none when it does not exist.
    public static func files(in folder: URL) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }
}

/// A vector as a Swift Testing argument, named after its file, tcId and id.
public struct VectorCase: Sendable, CustomStringConvertible {
    public let vector: Vector
    public var description: String {
        "\((vector.file as NSString).lastPathComponent) tcId \(vector.tcId) \(vector.id)"
    }
}

/// The project's own vector files, loaded once.
public enum FixtureVectors {
    public static let loaded: Result<[VectorFile], VectorLoadError> = {
        do throws(VectorLoadError) {
            return .success(try VectorLoader.load(paths: [Locations.fixtures.path]))
        } catch {
            return .failure(error)
        }
    }()

    /// Every vector of `family` (none if the fixtures fail to load; the
    /// loading test reports that).
    public static func cases(_ family: Family) -> [VectorCase] {
        ((try? loaded.get()) ?? []).filter { $0.family == family }.flatMap(\.vectors).map(VectorCase.init)
    }
}
