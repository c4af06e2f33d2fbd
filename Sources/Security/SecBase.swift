import Foundation
internal import KeychainAccessControl
internal import KeychainModel

// OSStatus values with Apple's numbers (docs/models/secitem.md, rule book §1f).
// Internal codes that Apple defines as errSecParam (ItemInvalidKey,
// ReturnMissingPointer, …) surface as errSecParam and have no name here.

/// `errSecSuccess`: no error.
public let errSecSuccess: OSStatus = 0
/// `errSecUnimplemented`: the function or operation is not implemented.
public let errSecUnimplemented: OSStatus = -4
/// `errSecParam`: a parameter was not valid.
public let errSecParam: OSStatus = -50
/// `errSecAllocate`: memory could not be allocated.
public let errSecAllocate: OSStatus = -108
/// `errSecUserCanceled`: the user cancelled the operation.
public let errSecUserCanceled: OSStatus = -128
/// `errSecBadReq`: a bad parameter or an invalid state for the operation.
public let errSecBadReq: OSStatus = -909
/// `errSecInternalComponent`: an internal component failed.
public let errSecInternalComponent: OSStatus = -2070
/// `errSecCoreFoundationUnknown`: an unknown Core Foundation error.
public let errSecCoreFoundationUnknown: OSStatus = -4960
/// `errSecNotAvailable`: no keychain is available (e.g. no passcode for akpu).
public let errSecNotAvailable: OSStatus = -25291
/// `errSecReadOnly`: read-only.
public let errSecReadOnly: OSStatus = -25292
/// `errSecAuthFailed`: authentication failed.
public let errSecAuthFailed: OSStatus = -25293
/// `errSecDuplicateItem`: an item with the same primary key exists.
public let errSecDuplicateItem: OSStatus = -25299
/// `errSecItemNotFound`: no item matched.
public let errSecItemNotFound: OSStatus = -25300
/// `errSecNoSuchAttr`: an attribute the item class does not have.
public let errSecNoSuchAttr: OSStatus = -25303
/// `errSecInvalidItemRef`: the item reference is no longer valid.
public let errSecInvalidItemRef: OSStatus = -25304
/// `errSecNoSuchClass`: an unknown item class.
public let errSecNoSuchClass: OSStatus = -25306
/// `errSecInteractionNotAllowed`: the item is locked, or a prompt was needed and not allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308
/// `errSecInteractionRequired`: user interaction is required.
public let errSecInteractionRequired: OSStatus = -25315
/// `errSecDataNotAvailable`: the item's contents cannot be retrieved.
public let errSecDataNotAvailable: OSStatus = -25316
/// `errSecIO`: an I/O error.
public let errSecIO: OSStatus = -36
/// `noErr`: success, as MacTypes names it (wrappers compare statuses with it).
public var noErr: OSStatus { 0 }
/// `errSecNoAccessForItem`: the item has no access control.
public let errSecNoAccessForItem: OSStatus = -25243
/// `errSecDecode`: data could not be decoded.
public let errSecDecode: OSStatus = -26275
/// `errSecMissingEntitlement`: an access group the app is not entitled to.
public let errSecMissingEntitlement: OSStatus = -34018
/// `errSecRestrictedAPI`: the API is restricted.
public let errSecRestrictedAPI: OSStatus = -34020
/// `errSecVerifyFailed`: a cryptographic verification failed.
public let errSecVerifyFailed: OSStatus = -67808

/// `SecCopyErrorMessageString(_:_:)`: a sentence describing `status`, or nil
/// for a status the model does not know. `reserved` is ignored, as on Apple
/// platforms.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    SecStatus(rawValue: status).map { NSString(string: $0.message) }
}
