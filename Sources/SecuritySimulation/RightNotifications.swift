import Foundation

extension Notification.Name {
    /// Posted (object: the `LARight`) when a simulated right becomes
    /// authorized. Not Apple's: a released SDK has no such notification (two
    /// Xcode 14 betas had one, under another name) and a device app observes
    /// `LARight.state` by key-value observing (rule book LA13), which Linux's
    /// Foundation lacks; so the simulation offers this instead, by a name
    /// that no code written for a device will use by mistake.
    public static let simulatedRightDidBecomeAuthorized = Notification.Name("TrustSuiteSimulatedRightDidBecomeAuthorized")
    /// Posted (object: the `LARight`) when an authorized simulated right stops being so.
    public static let simulatedRightDidBecomeUnauthorized = Notification.Name("TrustSuiteSimulatedRightDidBecomeUnauthorized")
}
