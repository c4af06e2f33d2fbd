import Foundation
import KeychainAccessControl
@testable import LocalAuthentication
import Testing

/// `LAError` in Apple's Swift shape: matching, bridging to and from `NSError`.
@Suite struct LAErrorTests {
    private func fail(_ error: any Error) throws { throw error }

    @Test func catchPatterns() {
        var caught: [String] = []
        do { try fail(LAError(.userCancel)) } catch LAError.userCancel { caught.append("pattern") } catch { caught.append("other") }
        do { try fail(LAError(.biometryLockout)) } catch let error as LAError where error.code == .biometryLockout {
            caught.append("where")
        } catch { caught.append("other") }
        do { try fail(LAError(.appCancel)) } catch LAError.userCancel { caught.append("wrong") } catch { caught.append("fallthrough") }
        #expect(caught == ["pattern", "where", "fallthrough"])
        let error: any Error = LAError(.systemCancel)
        switch error {
        case LAError.systemCancel: break
        default: Issue.record("switch over an Error matches an LAError.Code")
        }
    }

    @Test func bridgesToNSError() {
        let error: any Error = LAError(.userFallback, userInfo: [NSLocalizedDescriptionKey: "fell back"])
        let nsError = error as NSError
        #expect(nsError.domain == LAErrorDomain)
        #expect(nsError.code == -3)
        #expect(nsError.localizedDescription == "fell back")
        #expect(LAError.errorDomain == "com.apple.LocalAuthentication")
        #expect(LAError(.invalidContext).errorCode == -10)
    }

    @Test func bridgesFromNSError() {
        let nsError = NSError(domain: LAErrorDomain, code: -2)
        #expect((nsError as? LAError)?.code == .userCancel)
        let boxed: any Error = nsError
        #expect((boxed as? LAError)?.code == .userCancel)
        let otherDomain: any Error = NSError(domain: NSOSStatusErrorDomain, code: -2)
        #expect(otherDomain as? LAError == nil)
        let privateCode: any Error = NSError(domain: LAErrorDomain, code: -1001)
        #expect(privateCode as? LAError == nil)
        var pointer: NSError?
        pointer = NSError(domain: LAErrorDomain, code: -1004)
        if let pointer, let laError = pointer as? LAError {
            #expect(laError.code == .notInteractive)
        } else {
            Issue.record("an NSErrorPointer's error casts to LAError")
        }
    }

    /// Every model code becomes an `LAError` when the SDK names it, an `NSError` in the domain otherwise.
    @Test(arguments: LAErrorCode.allCases) func modelCodes(code: LAErrorCode) throws {
        let error = try #require(laError(code: code.rawValue, explanation: "R: why"))
        let nsError = error as NSError
        #expect(nsError.domain == LAErrorDomain)
        #expect(nsError.code == Int(code.rawValue))
        #expect(nsError.localizedDescription == "R: why")
        let named = LAError.Code(rawValue: Int(code.rawValue))
        #expect((error as? LAError)?.code == named)
        #expect(laError(code: nil, explanation: "") == nil)
    }

    @Test func completionErrorsMatchOptionally() {
        let error: (any Error)? = LAError(.userCancel)
        switch error {
        case LAError.userCancel?: break
        default: Issue.record("an optional error matches `LAError.userCancel?`")
        }
    }
}
