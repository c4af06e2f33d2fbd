import Foundation

/// The vector files of this folder, shipped as SwiftPM resources so that a
/// consumer's tests find them without a checkout beside the build
/// (`TrustSuiteTesting` reads them from here).
public enum TrustSuiteVectorResources {
    /// The folder holding `cbor/`, `app-attest/`, `keychain-acl/`, … inside the resource bundle.
    public static var folder: URL? { Bundle.module.resourceURL }
}
