import Foundation
internal import KeychainModel

// The values of SecItem attributes with Apple's exact strings (rule book
// docs/models/secitem.md, rule book §1b, §1c, §1e). kSecAttrAccessibleAlways and
// kSecAttrAccessibleAlwaysThisDeviceOnly are deprecated on iOS 12 and still
// accepted; they carry no `@available` attribute (see SecItemConstants.swift).

// MARK: kSecAttrAccessible values

/// `kSecAttrAccessibleWhenUnlocked`: readable while the device is unlocked (the default).
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = CFString(string: SecName.kSecAttrAccessibleWhenUnlocked)
/// `kSecAttrAccessibleAfterFirstUnlock`: readable after the first unlock since boot.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = CFString(string: SecName.kSecAttrAccessibleAfterFirstUnlock)
/// `kSecAttrAccessibleAlways`: always readable (deprecated on iOS 12).
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = CFString(string: SecName.kSecAttrAccessibleAlways)
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: as ``kSecAttrAccessibleWhenUnlocked``, never migrated.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = CFString(
    string: SecName.kSecAttrAccessibleWhenUnlockedThisDeviceOnly)
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: as ``kSecAttrAccessibleAfterFirstUnlock``, never migrated.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = CFString(
    string: SecName.kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly)
/// `kSecAttrAccessibleAlwaysThisDeviceOnly`: always readable, never migrated (deprecated on iOS 12).
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = CFString(
    string: SecName.kSecAttrAccessibleAlwaysThisDeviceOnly)
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: readable while unlocked, only while a passcode is set.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = CFString(
    string: SecName.kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly)

// MARK: kSecAttrProtocol values (four-character codes; note the trailing spaces)

/// `kSecAttrProtocolFTP`.
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = CFString(string: SecName.kSecAttrProtocolFTP)
/// `kSecAttrProtocolFTPAccount`.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = CFString(string: SecName.kSecAttrProtocolFTPAccount)
/// `kSecAttrProtocolHTTP`.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = CFString(string: SecName.kSecAttrProtocolHTTP)
/// `kSecAttrProtocolIRC`.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = CFString(string: SecName.kSecAttrProtocolIRC)
/// `kSecAttrProtocolNNTP`.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = CFString(string: SecName.kSecAttrProtocolNNTP)
/// `kSecAttrProtocolPOP3`.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = CFString(string: SecName.kSecAttrProtocolPOP3)
/// `kSecAttrProtocolSMTP`.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = CFString(string: SecName.kSecAttrProtocolSMTP)
/// `kSecAttrProtocolSOCKS`.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = CFString(string: SecName.kSecAttrProtocolSOCKS)
/// `kSecAttrProtocolIMAP`.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = CFString(string: SecName.kSecAttrProtocolIMAP)
/// `kSecAttrProtocolLDAP`.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = CFString(string: SecName.kSecAttrProtocolLDAP)
/// `kSecAttrProtocolAppleTalk`.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = CFString(string: SecName.kSecAttrProtocolAppleTalk)
/// `kSecAttrProtocolAFP`.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = CFString(string: SecName.kSecAttrProtocolAFP)
/// `kSecAttrProtocolTelnet`.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = CFString(string: SecName.kSecAttrProtocolTelnet)
/// `kSecAttrProtocolSSH`.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = CFString(string: SecName.kSecAttrProtocolSSH)
/// `kSecAttrProtocolFTPS`.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = CFString(string: SecName.kSecAttrProtocolFTPS)
/// `kSecAttrProtocolHTTPS`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = CFString(string: SecName.kSecAttrProtocolHTTPS)
/// `kSecAttrProtocolHTTPProxy`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = CFString(string: SecName.kSecAttrProtocolHTTPProxy)
/// `kSecAttrProtocolHTTPSProxy`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = CFString(string: SecName.kSecAttrProtocolHTTPSProxy)
/// `kSecAttrProtocolFTPProxy`.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = CFString(string: SecName.kSecAttrProtocolFTPProxy)
/// `kSecAttrProtocolSMB`.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = CFString(string: SecName.kSecAttrProtocolSMB)
/// `kSecAttrProtocolRTSP`.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = CFString(string: SecName.kSecAttrProtocolRTSP)
/// `kSecAttrProtocolRTSPProxy`.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = CFString(string: SecName.kSecAttrProtocolRTSPProxy)
/// `kSecAttrProtocolDAAP`.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = CFString(string: SecName.kSecAttrProtocolDAAP)
/// `kSecAttrProtocolEPPC`.
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = CFString(string: SecName.kSecAttrProtocolEPPC)
/// `kSecAttrProtocolIPP`.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = CFString(string: SecName.kSecAttrProtocolIPP)
/// `kSecAttrProtocolNNTPS`.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = CFString(string: SecName.kSecAttrProtocolNNTPS)
/// `kSecAttrProtocolLDAPS`.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = CFString(string: SecName.kSecAttrProtocolLDAPS)
/// `kSecAttrProtocolTelnetS`.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = CFString(string: SecName.kSecAttrProtocolTelnetS)
/// `kSecAttrProtocolIMAPS`.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = CFString(string: SecName.kSecAttrProtocolIMAPS)
/// `kSecAttrProtocolIRCS`.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = CFString(string: SecName.kSecAttrProtocolIRCS)
/// `kSecAttrProtocolPOP3S`.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = CFString(string: SecName.kSecAttrProtocolPOP3S)

// MARK: kSecAttrAuthenticationType values

/// `kSecAttrAuthenticationTypeNTLM`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeNTLM)
/// `kSecAttrAuthenticationTypeMSN`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeMSN)
/// `kSecAttrAuthenticationTypeDPA`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeDPA)
/// `kSecAttrAuthenticationTypeRPA`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeRPA)
/// `kSecAttrAuthenticationTypeHTTPBasic`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeHTTPBasic)
/// `kSecAttrAuthenticationTypeHTTPDigest`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = CFString(
    string: SecName.kSecAttrAuthenticationTypeHTTPDigest)
/// `kSecAttrAuthenticationTypeHTMLForm`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeHTMLForm)
/// `kSecAttrAuthenticationTypeDefault`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = CFString(string: SecName.kSecAttrAuthenticationTypeDefault)

// MARK: Key types, key classes and tokens

/// `kSecAttrKeyTypeRSA`.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = CFString(string: SecName.kSecAttrKeyTypeRSA)
/// `kSecAttrKeyTypeEC`: the older name of ``kSecAttrKeyTypeECSECPrimeRandom``.
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = CFString(string: SecName.kSecAttrKeyTypeEC)
/// `kSecAttrKeyTypeECSECPrimeRandom`: an elliptic-curve key (P-256 with 256 bits).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = CFString(string: SecName.kSecAttrKeyTypeECSECPrimeRandom)
/// `kSecAttrKeyClassPublic`.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = CFString(string: SecName.kSecAttrKeyClassPublic)
/// `kSecAttrKeyClassPrivate`.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = CFString(string: SecName.kSecAttrKeyClassPrivate)
/// `kSecAttrKeyClassSymmetric`.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = CFString(string: SecName.kSecAttrKeyClassSymmetric)
/// `kSecAttrTokenIDSecureEnclave`: the key is made and kept in the Secure Enclave.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = CFString(string: SecName.kSecAttrTokenIDSecureEnclave)
