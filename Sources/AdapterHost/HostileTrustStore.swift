import VectorContract
import Foundation
import TrustSuiteSupport

/// `--hostile-trust-store` (docs/vectors.md, "App Attest vectors any
/// verifier can run (round 3)"): a trust store holding the suite's test
/// roots — every `trustAnchorsPem` and `receiptTrustAnchorsPem` of the
/// selected vectors — that the adapter's process is pointed at through
/// `SSL_CERT_FILE` (one PEM bundle) and `SSL_CERT_DIR` (a folder with each
/// root in a file of its own, and OpenSSL's `HASH.0` names where `openssl
/// rehash` is there to make them). A library that consults the host's trust
/// store instead of its configured App Attest roots then accepts the
/// vectors whose anchors were removed, and is caught. The folder is private
/// to the run and removed by ``remove()``, or when a signal stops the
/// runner (``ProcessGroups/stopOnSignals()``; issue 52 item 7: it was left
/// behind).
public struct HostileTrustStore: Sendable {
    public let folder: URL
    public let roots: Int

    /// The variables to set in the adapter's environment.
    public var environment: [String: String] {
        ["SSL_CERT_FILE": folder.appendingPathComponent("bundle.pem").path, "SSL_CERT_DIR": folder.appendingPathComponent("certs").path]
    }

    /// The distinct anchors the vectors name, in first-seen order.
    public static func roots(of vectors: [Vector]) -> [String] {
        var seen = Set<String>()
        var roots: [String] = []
        for vector in vectors {
            for key in ["trustAnchorsPem", "receiptTrustAnchorsPem"] {
                for pem in (vector.input[key]?.arrayValue ?? []).compactMap(\.stringValue) where seen.insert(pem).inserted {
                    roots.append(pem)
                }
            }
        }
        return roots
    }

    /// Writes the store for `vectors` into a new temporary folder (mode 0700).
    public static func make(for vectors: [Vector]) throws -> HostileTrustStore {
        let roots = roots(of: vectors)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-trust-store-\(UUID().uuidString)")
        let certs = folder.appendingPathComponent("certs")
        ProcessGroups.shared.removeOnSignal(folder.path)
        try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = HostileTrustStore(folder: folder, roots: roots.count)
        do {
            let bundle = roots.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined()
            try Data(bundle.utf8).write(to: folder.appendingPathComponent("bundle.pem"))
            for (index, pem) in roots.enumerated() {
                try Data(pem.utf8).write(to: certs.appendingPathComponent("trustsuite-root-\(index + 1).pem"))
            }
            rehash(certs)
        } catch {
            store.remove()
            throw error
        }
        return store
    }

    /// `openssl rehash FOLDER`, when openssl is on the PATH: the `HASH.0`
    /// links OpenSSL's lookup by folder needs (other libraries read every file).
    static func rehash(_ folder: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "rehash", folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        process.waitUntilExit()
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
        ProcessGroups.shared.forget(folder.path)
    }
}
