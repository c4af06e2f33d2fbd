import Foundation

/// The source checkout this code was built from: the CLI falls back to its
/// `Fixtures/`, the tests and the fuzz oracles read `Fixtures/`, `Fuzz/` and
/// `../shared/vectors` beside it. Found from this file's path
/// (`Sources/TrustSuiteSupport/Checkout.swift`), so it is right for a build
/// in place and meaningless for a binary copied elsewhere: callers check that
/// what they look for exists.
public enum Checkout {
    /// The package root (the folder holding `Package.swift`).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path below the package root.
    public static func path(_ components: String...) -> URL {
        components.reduce(root) { $0.appendingPathComponent($1) }
    }
}
