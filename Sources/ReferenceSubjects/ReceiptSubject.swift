import AppAttest
import VectorContract
import Foundation
import TrustSuiteSupport

/// `app-attest-receipt` against ``ReceiptVerifier``.
enum ReceiptSubject {
    /// The largest `clockSkew` a vector may set: a day.
    static let maxClockSkew: Int64 = 86_400

    static func evaluate(_ input: ReceiptFamily.Input) async throws -> SubjectAnswer {
        var clockSkew = ReceiptVerifier.defaultClockSkew
        if let seconds = input.clockSkew {
            guard seconds >= 0, seconds <= maxClockSkew else {
                throw ReferenceInputError("clockSkew must be a whole number of seconds in 0…86400")
            }
            clockSkew = TimeInterval(seconds)
        }
        let verifier = try ReceiptVerifier(
            trustAnchors: try AppAttestSubject.anchors(input.trustAnchorsPem, "trustAnchorsPem"),
            clockSkew: clockSkew)
        do {
            let receipt = try await verifier.verify(
                receipt: input.receipt.bytes,
                at: try AppAttestSubject.time(input.validationTime, "validationTime"),
                appId: input.appId, publicKey: input.publicKey?.bytes,
                maxAge: input.maxAge.map(TimeInterval.init)
            ).receipt
            return SubjectAnswer(
                .valid,
                output: .object([
                    "type": receipt.kind.map { .string($0.rawValue) } ?? .null,
                    "appId": receipt.appId.map(JSONValue.string) ?? .null,
                    "creationTime": receipt.creationTimeText.map(JSONValue.string) ?? .null,
                    "riskMetric": receipt.riskMetric.map { .int(Int64($0)) } ?? .null,
                ]))
        } catch let error as AppAttestError {
            return AppAttestSubject.rejected(error)
        }
    }
}
