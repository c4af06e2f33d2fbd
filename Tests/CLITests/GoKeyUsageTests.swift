import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The bug Apple's 2026 certificates exposed in Go verifiers (issue 43):
/// `x509.Verify` with empty `KeyUsages` demands TLS-server usage of a leaf
/// that has an Extended Key Usage. A Go adapter with exactly that bug
/// (Tests/Adapters/go_default_key_usage_adapter.go, chain check only) runs
/// through `trustsuite run`: it refuses Apple's 2026 sample and every
/// generated attestation (their credential certificates carry Apple's
/// EKU), and the vector pair that isolates the EKU shows why.
@Suite(.enabled(if: GoToolchain.go != nil, "go is not installed (Debian golang-go, installed by Adapters/install-debian.sh)"))
struct GoKeyUsageTests {

    @Test func theEKUVectorsCatchGosDefaultKeyUsage() throws {
        let go = try #require(GoToolchain.go)
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("go-default-key-usage").path
        let source = Locations.packageRoot.appendingPathComponent("Tests/Adapters/go_default_key_usage_adapter.go").path
        let built = try Processes.output([
            "GO111MODULE=off", "GOFLAGS=", "GOPROXY=off", "GOPATH=\(folder.path)/gopath",
            "GOCACHE=\(folder.path)/gocache", go, "build", "-o", binary, source,
        ])
        try #require(built.status == 0, "go build failed")
        let json = folder.appendingPathComponent("run.json")
        let fixtures = ["app-attest/attestation.json", "app-attest/attestation-ios27.json", "real/attestation.json"]
        // Apple's App Attestation root, the anchor of the real vectors (they name none), as the adapter's caller would configure it.
        let appleRoot = Locations.externalVectors.appendingPathComponent("app-attest/Apple_App_Attestation_Root_CA.pem").path
        let outcome = try CLI.run(
            ["run", "--only"] + fixtures.flatMap { ["--fixtures", Locations.fixtures.appendingPathComponent($0).path] }
                + ["--quiet", "--adapter", "\(binary) \(appleRoot)", "--json", json.path], timeout: 300)
        #expect(outcome.status == 1, "\(outcome)")
        let cases = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))["cases"]?.arrayValue ?? []
        func result(_ id: String) throws -> JSONValue { try #require(cases.first { $0["id"]?.stringValue == id }, "\(id)") }
        func refusedForTheKeyUsage(_ id: String) throws {
            let c = try result(id)
            #expect(c["grade"]?.stringValue == "fail" && c["expected"]?.stringValue == "valid", "\(id): \(c)")
            #expect(c["message"]?.stringValue?.contains("incompatible key usage") == true, "\(id): \(c)")
        }
        // The isolating pair: only the EKU differs.
        try refusedForTheKeyUsage("attestation-certificate-extension::eku-app-attest-only")
        #expect(try result("attestation-certificate-extension::without-eku")["grade"]?.stringValue == "pass")
        #expect(try result("attestation-certificate-extension::minimal")["grade"]?.stringValue == "pass")
        // What users of such a verifier see: Apple's own 2026 sample and every generated attestation refused, the 2024 sample passed.
        if Locations.externalAvailable {
            try refusedForTheKeyUsage("attestation-real::apple-2026-ios27::baseline")
            #expect(try result("attestation-real::apple-2024-ios18::baseline")["grade"]?.stringValue == "pass")
        }
        try refusedForTheKeyUsage("attestation-baseline::production")
        try refusedForTheKeyUsage("attestation-host-store::production")
        let withoutEKU = ["attestation-certificate-extension::without-eku", "attestation-certificate-extension::minimal"]
        let generatedValid = cases.filter { c in
            c["expected"]?.stringValue == "valid" && c["file"]?.stringValue?.contains("Fixtures/app-attest/") == true
                && !withoutEKU.contains(c["id"]?.stringValue ?? "")
        }
        #expect(generatedValid.count > 50)
        for c in generatedValid where c["grade"]?.stringValue != "fail" {
            Issue.record("\(c["id"]?.stringValue ?? "?"): a generated credential certificate without Apple's EKU")
        }
    }
}

/// Where the Go toolchain is, if installed.
enum GoToolchain {
    static let go: String? = ["/usr/bin/go", "/usr/local/go/bin/go", "/usr/lib/go/bin/go"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}
