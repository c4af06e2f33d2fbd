import Foundation

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
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// `kSecClassGenericPassword`: a password with an account and a service.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// `kSecClassInternetPassword`: a password for a server, protocol and port.
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet"
/// `kSecClassCertificate`: a certificate.
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert"
/// `kSecClassKey`: a cryptographic key.
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"
/// `kSecClassIdentity`: a certificate with its private key.
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt"

// MARK: Item attributes

/// `kSecAttrAccessible`: when the item is readable (a `kSecAttrAccessible…` value).
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// `kSecAttrAccessControl`: a `SecAccessControl`.
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
/// `kSecAttrAccessGroup`: the keychain access group.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// `kSecAttrCreationDate`: a `CFDate`, set by the keychain.
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
/// `kSecAttrModificationDate`: a `CFDate`, set by the keychain.
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"
/// `kSecAttrDescription`: a user-visible description.
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"
/// `kSecAttrComment`: a user-editable comment.
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"
/// `kSecAttrCreator`: a four-character creator code, as a `CFNumber`.
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"
/// `kSecAttrType`: a four-character type code, as a `CFNumber` (same string as ``kSecAttrKeyType``).
nonisolated(unsafe) public let kSecAttrType: CFString = "type"
/// `kSecAttrLabel`: a user-visible label.
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"
/// `kSecAttrIsInvisible`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"
/// `kSecAttrIsNegative`: a `CFBoolean`: the item holds no valid password.
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"
/// `kSecAttrAccount`: the account name.
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// `kSecAttrService`: the service name.
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// `kSecAttrGeneric`: caller-defined `CFData`.
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"
/// `kSecAttrSecurityDomain`: an internet password's security domain.
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn"
/// `kSecAttrServer`: an internet password's server.
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"
/// `kSecAttrProtocol`: a `kSecAttrProtocol…` value.
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl"
/// `kSecAttrAuthenticationType`: a `kSecAttrAuthenticationType…` value.
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp"
/// `kSecAttrPort`: a `CFNumber`.
nonisolated(unsafe) public let kSecAttrPort: CFString = "port"
/// `kSecAttrPath`: an internet password's path.
nonisolated(unsafe) public let kSecAttrPath: CFString = "path"
/// `kSecAttrSynchronizable`: a `CFBoolean`, or ``kSecAttrSynchronizableAny`` in a query.
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// `kSecAttrSynchronizableAny`: a query matches synchronizable items and others.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"
/// `kSecAttrTokenID`: the token holding the key (``kSecAttrTokenIDSecureEnclave``).
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid"
/// `kSecAttrSyncViewHint`: the sync view.
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = "vwht"
/// `kSecAttrPersistentReference`: the item's persistent reference.
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = "persistref"
/// `kSecAttrAccessGroupToken`: the access group of items on tokens (read-only).
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = "com.apple.token"
/// `kSecAttrCertificateType`: a certificate's type, a `CFNumber`.
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp"
/// `kSecAttrCertificateEncoding`: a certificate's encoding, a `CFNumber`.
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = "cenc"
/// `kSecAttrSubject`: a certificate's subject, DER bytes.
nonisolated(unsafe) public let kSecAttrSubject: CFString = "subj"
/// `kSecAttrIssuer`: a certificate's issuer, DER bytes.
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr"
/// `kSecAttrSerialNumber`: a certificate's serial number, DER bytes.
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr"
/// `kSecAttrSubjectKeyID`: a certificate's subject key identifier.
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = "skid"
/// `kSecAttrPublicKeyHash`: the hash of a certificate's public key.
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = "pkhh"

// MARK: Key attributes

/// `kSecAttrKeyClass`: a `kSecAttrKeyClass…` value.
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"
/// `kSecAttrApplicationLabel`: for EC and RSA keys, the hash of the public key.
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl"
/// `kSecAttrIsPermanent`: a `CFBoolean`: store the new key in the keychain.
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm"
/// `kSecAttrApplicationTag`: caller-defined `CFData` naming the key.
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag"
/// `kSecAttrKeyCreator`: the key's creator (same string as ``kSecAttrCreator``).
nonisolated(unsafe) public let kSecAttrKeyCreator: CFString = "crtr"
/// `kSecAttrKeyType`: a `kSecAttrKeyType…` value (same string as ``kSecAttrType``).
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"
/// `kSecAttrKeySizeInBits`: a `CFNumber`.
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz"
/// `kSecAttrEffectiveKeySize`: a `CFNumber`.
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz"
/// `kSecAttrCanEncrypt`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr"
/// `kSecAttrCanDecrypt`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr"
/// `kSecAttrCanDerive`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve"
/// `kSecAttrCanSign`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign"
/// `kSecAttrCanVerify`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy"
/// `kSecAttrCanWrap`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap"
/// `kSecAttrCanUnwrap`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp"
/// `kSecAttrIsSensitive`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = "sens"
/// `kSecAttrIsExtractable`: a `CFBoolean`.
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = "extr"
/// `kSecPrivateKeyAttrs`: in `SecKeyCreateRandomKey`'s parameters, the private key's attributes.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private"
/// `kSecPublicKeyAttrs`: in `SecKeyCreateRandomKey`'s parameters, the public key's attributes.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public"

// MARK: Search, return, value and use keys

/// `kSecMatchLimit`: how many items a query returns (``kSecMatchLimitOne``, ``kSecMatchLimitAll`` or a `CFNumber`).
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// `kSecMatchLimitOne`: one item (the default).
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `kSecMatchLimitAll`: every matching item, in a `CFArray`.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
/// `kSecMatchCaseInsensitive`: a `CFBoolean` (accepted without effect on iOS).
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"
/// `kSecMatchPolicy`: a `SecPolicy` certificates must satisfy.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = "m_Policy"
/// `kSecMatchIssuers`: a `CFArray` of issuer names.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = "m_Issuers"
/// `kSecMatchHostOrSubdomainOfHost`: internet passwords for a host or its subdomains.
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = "m_HostOrSubdomainOfHost"
/// `kSecMatchValidOnDate`: certificates valid on a date.
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = "m_ValidOnDate"
/// `kSecMatchTrustedOnly`: only trusted certificates.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"
/// `kSecMatchItemList`: a `CFArray` of items the search is limited to.
nonisolated(unsafe) public let kSecMatchItemList: CFString = "m_ItemList"
/// `kSecMatchSearchList`: a `CFArray` of keychains to search (macOS); accepted without effect on iOS.
nonisolated(unsafe) public let kSecMatchSearchList: CFString = "m_SearchList"
/// `kSecMatchEmailAddressIfPresent`: certificates with this e-mail address.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"
/// `kSecMatchSubjectContains`: certificates whose subject contains this string.
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = "m_SubjectContains"
/// `kSecMatchSubjectStartsWith`: certificates whose subject starts with this string (macOS).
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = "m_SubjectStartsWith"
/// `kSecMatchSubjectEndsWith`: certificates whose subject ends with this string (macOS).
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = "m_SubjectEndsWith"
/// `kSecMatchSubjectWholeString`: certificates whose subject is this string (macOS).
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = "m_SubjectWholeString"
/// `kSecMatchDiacriticInsensitive`: a `CFBoolean` (accepted without effect on iOS).
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = "m_DiacriticInsensitive"
/// `kSecMatchWidthInsensitive`: a `CFBoolean` (accepted without effect on iOS).
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = "m_WidthInsensitive"
/// `kSecReturnData`: a `CFBoolean`: return the item's data.
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// `kSecReturnAttributes`: a `CFBoolean`: return the item's attributes.
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// `kSecReturnRef`: a `CFBoolean`: return a reference (`SecKey`, …).
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"
/// `kSecReturnPersistentRef`: a `CFBoolean`: return a persistent reference.
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef"
/// `kSecValueData`: the item's secret data.
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// `kSecValueRef`: a reference to the item (`SecKey`, …).
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"
/// `kSecValuePersistentRef`: a persistent reference to the item.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"
/// `kSecUseOperationPrompt`: the reason shown in a prompt (deprecated on iOS 14 for `LAContext.localizedReason`).
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
/// `kSecUseAuthenticationUI`: whether a prompt may be shown (``kSecUseAuthenticationUIAllow``, …).
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
/// `kSecUseAuthenticationUIAllow`: prompt when needed (deprecated on iOS 14).
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
/// `kSecUseAuthenticationUIFail`: fail with errSecInteractionNotAllowed instead of prompting (deprecated on iOS 14).
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
/// `kSecUseAuthenticationUISkip`: silently skip items that need authentication.
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"
/// `kSecUseAuthenticationContext`: the `LAContext` to authenticate with.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
/// `kSecUseDataProtectionKeychain`: use the data-protection keychain (the only one on iOS).
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// `kSecUseNoAuthenticationUI`: a `CFBoolean` (deprecated on iOS 9 for ``kSecUseAuthenticationUI``).
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"
