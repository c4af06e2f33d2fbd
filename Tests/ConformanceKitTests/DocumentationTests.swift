import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The documents issue 24 asks for: the README a front door of at most 400
/// lines, docs/ with the documents it points to, and the public contract
/// inside the repository, equal to the shared spec it comes from.
@Suite struct DocumentationTests {
    static func text(_ components: String...) throws -> String {
        try String(contentsOf: components.reduce(Checkout.root) { $0.appendingPathComponent($1) }, encoding: .utf8)
    }

    @Test func readmeIsAFrontDoor() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 400, "README.md has \(lines) lines")
    }

    /// Every document the README and docs/README.md link to exists (and there are at least five).
    @Test func linkedDocumentsExist() throws {
        var linked = Set<String>()
        for (file, base) in [("README.md", ""), ("docs/README.md", "docs/")] {
            let text = try Self.text(file)
            for match in text.matches(of: /\]\(([^)#:]+\.md)\)/) {
                let path = URL(fileURLWithPath: base + String(match.1), relativeTo: Checkout.root).standardizedFileURL.path
                linked.insert(path)
            }
        }
        #expect(linked.filter { $0.contains("/docs/") }.count >= 5, "\(linked.sorted())")
        for path in linked.sorted() { #expect(FileManager.default.fileExists(atPath: path), "\(path) is linked but missing") }
    }

    /// The shared spec's vectors.md, where the checkout sits beside it.
    static var sharedContract: URL { Checkout.root.deletingLastPathComponent().appendingPathComponent("shared/spec/vectors.md") }

    /// Where the shared spec names its other files, the clone names the
    /// documents that hold their vocabulary (issue 41: the contract lives in
    /// the clone; `ReferenceTests` fails on a reference outside it).
    static let inRepository: [(shared: String, clone: String)] = [
        ("spec/vectors.md", "docs/vectors.md"), ("spec/cbor.md", "docs/models/cbor.md"),
        ("spec/app-attest.md", "docs/models/app-attest.md"), ("spec/access-control.md", "docs/models/keychain-acl.md"),
        ("spec/keychain-flows.md", "docs/traces.md"), ("spec/local-authorization.md", "docs/traces.md"),
        ("spec/probe.md", "docs/probe.md"), ("spec/secitem-rules.md", "docs/models/secitem.md"),
        ("spec/apple-api.md", "docs/apple-api.md"),
    ]

    /// docs/vectors.md opens with the contract, word for word as the shared
    /// spec's vectors.md has it (its references rewritten by
    /// ``inRepository``), up to the marker that ends it.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedContract.path),
            "no shared spec beside the checkout to compare with"))
    func vectorContractIsTheSharedSpec() throws {
        let document = try Self.text("docs", "vectors.md")
        let end = try #require(document.range(of: "<!-- end of the contract"))
        let contract = String(document[..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        let shared = Self.inRepository.reduce(try String(contentsOf: Self.sharedContract, encoding: .utf8)) {
            $0.replacingOccurrences(of: $1.shared, with: $1.clone)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(contract == shared, "docs/vectors.md and the shared spec's vectors.md differ: copy the spec into docs/vectors.md")
    }
}
