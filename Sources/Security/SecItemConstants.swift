import Foundation
internal import KeychainModel

// The keys of SecItem dictionaries with Apple's exact values (rule book
// docs/models/secitem.md, rule book §1a, §1b, §1d). The model reads dictionaries keyed by
// these strings. `nonisolated(unsafe)`: `NSString` is not `Sendable` on
// Linux, and these are immutable, so code in Swift 6 mode can read them
// from any context.
//
// Apple deprecates some of them (kSecUseOperationPrompt, kSecUseAuthenticationUIAllow
// and …Fail on iOS 14, kSecUseNoAuthenticationUI on iOS 9): their doc comments
// say so, with no `@available` attribute, so that builds with warnings as
// errors of code that replays Apple's vocabulary still compile.

// MARK: Item classes

/// `kSecClass`: the item class key; its value is one of the `kSecClass…` values.
nonisolated(unsafe) public let kSecClass: CFString = CFString(string: SecName.kSecClass)
/// `kSecClassGenericPassword`: a password with an account and a service.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = CFString(string: SecName.kSecClassGenericPassword)
/// `kSecClassInternetPassword`: a password for a server, protocol and port.
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = CFString(string: SecName.kSecClassInternetPassword)
/// `kSecClassCertificate`: a certificate.
nonisolated(unsafe) public let kSecClassCertificate: CFString = CFString(string: SecName.kSecClassCertificate)
/// `kSecClassKey`: a cryptographic key.
nonisolated(unsafe) public let kSecClassKey: CFString = CFString(string: SecName.kSecClassKey)
/// `kSecClassIdentity`: a certificate with its private key.
nonisolated(unsafe) public let kSecClassIdentity: CFString = CFString(string: SecName.kSecClassIdentity)

// MARK: Item attributes

/// `kSecAttrAccessible`: when the item is readable (a `kSecAttrAccessible…` value).
nonisolated(unsafe) public let kSecAttrAccessible: CFString = CFString(string: SecName.kSecAttrAccessible)
/// `kSecAttrAccessControl`: a `SecAccessControl`.
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = CFString(string: SecName.kSecAttrAccessControl)
/// `kSecAttrAccessGroup`: the keychain access group.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = CFString(string: SecName.kSecAttrAccessGroup)
/// `kSecAttrCreationDate`: a `CFDate`, set by the keychain.
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = CFString(string: SecName.kSecAttrCreationDate)
/// `kSecAttrModificationDate`: a `CFDate`, set by the keychain.
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = CFString(string: SecName.kSecAttrModificationDate)
/// `kSecAttrDescription`: a user-visible description.
nonisolated(unsafe) public let kSecAttrDescription: CFString = CFString(string: SecName.kSecAttrDescription)
/// `kSecAttrComment`: a user-editable comment.
nonisolated(unsafe) public let kSecAttrComment: CFString = CFString(string: SecName.kSecAttrComment)
/// `kSecAttrCreator`: a four-character creator code, as a `CFNumber`.
nonisolated(unsafe) public let kSecAttrCreator: CFString = CFString(string: SecName.kSecAttrCreator)
/// `kSecAttrType`: a four-character type code, as a `CFNumber` (same string as ``kSecAttrKeyType``).
nonisolated(unsafe) public let kSecAttrType: CFString = CFString(string: SecName.kSecAttrType)
/// `kSecAttrLabel`: a user-visible label.
nonisolated(unsafe) public let kSecAttrLabel: CFString = CFString(string: SecName.kSecAttrLabel)
/// `kSecAttrIsInvisible`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = CFString(string: SecName.kSecAttrIsInvisible)
/// `kSecAttrIsNegative`: a `CFBoolean`: the item holds no valid password.
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = CFString(string: SecName.kSecAttrIsNegative)
/// `kSecAttrAccount`: the account name.
nonisolated(unsafe) public let kSecAttrAccount: CFString = CFString(string: SecName.kSecAttrAccount)
/// `kSecAttrService`: the service name.
nonisolated(unsafe) public let kSecAttrService: CFString = CFString(string: SecName.kSecAttrService)
/// `kSecAttrGeneric`: caller-defined `CFData`.
nonisolated(unsafe) public let kSecAttrGeneric: CFString = CFString(string: SecName.kSecAttrGeneric)
/// `kSecAttrSecurityDomain`: an internet password's security domain.
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = CFString(string: SecName.kSecAttrSecurityDomain)
/// `kSecAttrServer`: an internet password's server.
nonisolated(unsafe) public let kSecAttrServer: CFString = CFString(string: SecName.kSecAttrServer)
/// `kSecAttrProtocol`: a `kSecAttrProtocol…` value.
nonisolated(unsafe) public let kSecAttrProtocol: CFString = CFString(string: SecName.kSecAttrProtocol)
/// `kSecAttrAuthenticationType`: a `kSecAttrAuthenticationType…` value.
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = CFString(string: SecName.kSecAttrAuthenticationType)
/// `kSecAttrPort`: a `CFNumber`.
nonisolated(unsafe) public let kSecAttrPort: CFString = CFString(string: SecName.kSecAttrPort)
/// `kSecAttrPath`: an internet password's path.
nonisolated(unsafe) public let kSecAttrPath: CFString = CFString(string: SecName.kSecAttrPath)
/// `kSecAttrSynchronizable`: a `CFBoolean`, or ``kSecAttrSynchronizableAny`` in a query.
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = CFString(string: SecName.kSecAttrSynchronizable)
/// `kSecAttrSynchronizableAny`: a query matches synchronizable items and others.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = CFString(string: SecName.kSecAttrSynchronizableAny)
/// `kSecAttrTokenID`: the token holding the key (``kSecAttrTokenIDSecureEnclave``).
nonisolated(unsafe) public let kSecAttrTokenID: CFString = CFString(string: SecName.kSecAttrTokenID)
/// `kSecAttrSyncViewHint`: the sync view.
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = CFString(string: SecName.kSecAttrSyncViewHint)
/// `kSecAttrPersistentReference`: the item's persistent reference.
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = CFString(string: SecName.kSecAttrPersistentReference)
/// `kSecAttrAccessGroupToken`: the access group of items on tokens (read-only).
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = CFString(string: SecName.kSecAttrAccessGroupToken)
/// `kSecAttrCertificateType`: a certificate's type, a `CFNumber`.
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = CFString(string: SecName.kSecAttrCertificateType)
/// `kSecAttrCertificateEncoding`: a certificate's encoding, a `CFNumber`.
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = CFString(string: SecName.kSecAttrCertificateEncoding)
/// `kSecAttrSubject`: a certificate's subject, DER bytes.
nonisolated(unsafe) public let kSecAttrSubject: CFString = CFString(string: SecName.kSecAttrSubject)
/// `kSecAttrIssuer`: a certificate's issuer, DER bytes.
nonisolated(unsafe) public let kSecAttrIssuer: CFString = CFString(string: SecName.kSecAttrIssuer)
/// `kSecAttrSerialNumber`: a certificate's serial number, DER bytes.
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = CFString(string: SecName.kSecAttrSerialNumber)
/// `kSecAttrSubjectKeyID`: a certificate's subject key identifier.
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = CFString(string: SecName.kSecAttrSubjectKeyID)
/// `kSecAttrPublicKeyHash`: the hash of a certificate's public key.
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = CFString(string: SecName.kSecAttrPublicKeyHash)

// MARK: Key attributes

/// `kSecAttrKeyClass`: a `kSecAttrKeyClass…` value.
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = CFString(string: SecName.kSecAttrKeyClass)
/// `kSecAttrApplicationLabel`: for EC and RSA keys, the hash of the public key.
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = CFString(string: SecName.kSecAttrApplicationLabel)
/// `kSecAttrIsPermanent`: a `CFBoolean`: store the new key in the keychain.
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = CFString(string: SecName.kSecAttrIsPermanent)
/// `kSecAttrApplicationTag`: caller-defined `CFData` naming the key.
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = CFString(string: SecName.kSecAttrApplicationTag)
/// `kSecAttrKeyType`: a `kSecAttrKeyType…` value (same string as ``kSecAttrType``).
nonisolated(unsafe) public let kSecAttrKeyType: CFString = CFString(string: SecName.kSecAttrKeyType)
/// `kSecAttrKeySizeInBits`: a `CFNumber`.
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = CFString(string: SecName.kSecAttrKeySizeInBits)
/// `kSecAttrEffectiveKeySize`: a `CFNumber`.
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = CFString(string: SecName.kSecAttrEffectiveKeySize)
/// `kSecAttrCanEncrypt`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = CFString(string: SecName.kSecAttrCanEncrypt)
/// `kSecAttrCanDecrypt`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = CFString(string: SecName.kSecAttrCanDecrypt)
/// `kSecAttrCanDerive`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = CFString(string: SecName.kSecAttrCanDerive)
/// `kSecAttrCanSign`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanSign: CFString = CFString(string: SecName.kSecAttrCanSign)
/// `kSecAttrCanVerify`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = CFString(string: SecName.kSecAttrCanVerify)
/// `kSecAttrCanWrap`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = CFString(string: SecName.kSecAttrCanWrap)
/// `kSecAttrCanUnwrap`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = CFString(string: SecName.kSecAttrCanUnwrap)
/// `kSecAttrIsSensitive`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = CFString(string: SecName.kSecAttrIsSensitive)
/// `kSecAttrIsExtractable`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = CFString(string: SecName.kSecAttrIsExtractable)
/// `kSecPrivateKeyAttrs`: in `SecKeyCreateRandomKey`'s parameters, the private key's attributes.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = CFString(string: SecName.kSecPrivateKeyAttrs)
/// `kSecPublicKeyAttrs`: in `SecKeyCreateRandomKey`'s parameters, the public key's attributes.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = CFString(string: SecName.kSecPublicKeyAttrs)

// MARK: Search, return, value and use keys

/// `kSecMatchLimit`: how many items a query returns (``kSecMatchLimitOne``, ``kSecMatchLimitAll`` or a `CFNumber`).
nonisolated(unsafe) public let kSecMatchLimit: CFString = CFString(string: SecName.kSecMatchLimit)
/// `kSecMatchLimitOne`: one item (the default).
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = CFString(string: SecName.kSecMatchLimitOne)
/// `kSecMatchLimitAll`: every matching item, in a `CFArray`.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = CFString(string: SecName.kSecMatchLimitAll)
/// `kSecMatchCaseInsensitive`: a `CFBoolean` (accepted without effect on iOS).
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = CFString(string: SecName.kSecMatchCaseInsensitive)
/// `kSecMatchPolicy`: a `SecPolicy` certificates must satisfy.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = CFString(string: SecName.kSecMatchPolicy)
/// `kSecMatchIssuers`: a `CFArray` of issuer names.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = CFString(string: SecName.kSecMatchIssuers)
/// `kSecMatchHostOrSubdomainOfHost`: internet passwords for a host or its subdomains.
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = CFString(string: SecName.kSecMatchHostOrSubdomainOfHost)
/// `kSecMatchValidOnDate`: certificates valid on a date.
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = CFString(string: SecName.kSecMatchValidOnDate)
/// `kSecMatchTrustedOnly`: only trusted certificates.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = CFString(string: SecName.kSecMatchTrustedOnly)
/// `kSecMatchItemList`: a `CFArray` of items the search is limited to.
nonisolated(unsafe) public let kSecMatchItemList: CFString = CFString(string: SecName.kSecMatchItemList)
/// `kSecMatchSearchList`: a `CFArray` of keychains to search (macOS); accepted without effect on iOS.
nonisolated(unsafe) public let kSecMatchSearchList: CFString = CFString(string: SecName.kSecMatchSearchList)
/// `kSecMatchEmailAddressIfPresent`: certificates with this e-mail address.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = CFString(string: SecName.kSecMatchEmailAddressIfPresent)
/// `kSecMatchSubjectContains`: certificates whose subject contains this string.
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = CFString(string: SecName.kSecMatchSubjectContains)
/// `kSecReturnData`: a `CFBoolean`: return the item's data.
nonisolated(unsafe) public let kSecReturnData: CFString = CFString(string: SecName.kSecReturnData)
/// `kSecReturnAttributes`: a `CFBoolean`: return the item's attributes.
nonisolated(unsafe) public let kSecReturnAttributes: CFString = CFString(string: SecName.kSecReturnAttributes)
/// `kSecReturnRef`: a `CFBoolean`: return a reference (`SecKey`, …).
nonisolated(unsafe) public let kSecReturnRef: CFString = CFString(string: SecName.kSecReturnRef)
/// `kSecReturnPersistentRef`: a `CFBoolean`: return a persistent reference.
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = CFString(string: SecName.kSecReturnPersistentRef)
/// `kSecValueData`: the item's secret data.
nonisolated(unsafe) public let kSecValueData: CFString = CFString(string: SecName.kSecValueData)
/// `kSecValueRef`: a reference to the item (`SecKey`, …).
nonisolated(unsafe) public let kSecValueRef: CFString = CFString(string: SecName.kSecValueRef)
/// `kSecValuePersistentRef`: a persistent reference to the item.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = CFString(string: SecName.kSecValuePersistentRef)
/// `kSecUseOperationPrompt`: the reason shown in a prompt (deprecated on iOS 14 for `LAContext.localizedReason`).
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = CFString(string: SecName.kSecUseOperationPrompt)
/// `kSecUseAuthenticationUI`: whether a prompt may be shown (``kSecUseAuthenticationUIAllow``, …).
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = CFString(string: SecName.kSecUseAuthenticationUI)
/// `kSecUseAuthenticationUIAllow`: prompt when needed (deprecated on iOS 14).
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = CFString(string: SecName.kSecUseAuthenticationUIAllow)
/// `kSecUseAuthenticationUIFail`: fail with errSecInteractionNotAllowed instead of prompting (deprecated on iOS 14).
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = CFString(string: SecName.kSecUseAuthenticationUIFail)
/// `kSecUseAuthenticationUISkip`: silently skip items that need authentication.
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = CFString(string: SecName.kSecUseAuthenticationUISkip)
/// `kSecUseAuthenticationContext`: the `LAContext` to authenticate with.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = CFString(string: SecName.kSecUseAuthenticationContext)
/// `kSecUseDataProtectionKeychain`: use the data-protection keychain (the only one on iOS).
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = CFString(string: SecName.kSecUseDataProtectionKeychain)
/// `kSecUseNoAuthenticationUI`: a `CFBoolean` (deprecated on iOS 9 for ``kSecUseAuthenticationUI``).
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = CFString(string: SecName.kSecUseNoAuthenticationUI)
