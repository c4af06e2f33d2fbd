import Foundation

// The values of SecItem attributes with Apple's exact strings (rule book
// docs/models/secitem.md, rule book §1b, §1c, §1e). kSecAttrAccessibleAlways and
// kSecAttrAccessibleAlwaysThisDeviceOnly are deprecated on iOS 12 and still
// accepted; they carry no `@available` attribute (see SecItemConstants.swift).

// MARK: kSecAttrAccessible values

/// `kSecAttrAccessibleWhenUnlocked`: readable while the device is unlocked (the default).
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// `kSecAttrAccessibleAfterFirstUnlock`: readable after the first unlock since boot.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// `kSecAttrAccessibleAlways`: always readable (deprecated on iOS 12).
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`: as ``kSecAttrAccessibleWhenUnlocked``, never migrated.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: as ``kSecAttrAccessibleAfterFirstUnlock``, never migrated.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `kSecAttrAccessibleAlwaysThisDeviceOnly`: always readable, never migrated (deprecated on iOS 12).
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: readable while unlocked, only while a passcode is set.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

// MARK: kSecAttrProtocol values (four-character codes; note the trailing spaces)

/// `kSecAttrProtocolFTP`.
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp "
/// `kSecAttrProtocolFTPAccount`.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
/// `kSecAttrProtocolHTTP`.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http"
/// `kSecAttrProtocolIRC`.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc "
/// `kSecAttrProtocolNNTP`.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp"
/// `kSecAttrProtocolPOP3`.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3"
/// `kSecAttrProtocolSMTP`.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp"
/// `kSecAttrProtocolSOCKS`.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox "
/// `kSecAttrProtocolIMAP`.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap"
/// `kSecAttrProtocolLDAP`.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap"
/// `kSecAttrProtocolAppleTalk`.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk"
/// `kSecAttrProtocolAFP`.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp "
/// `kSecAttrProtocolTelnet`.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln"
/// `kSecAttrProtocolSSH`.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh "
/// `kSecAttrProtocolFTPS`.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps"
/// `kSecAttrProtocolHTTPS`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps"
/// `kSecAttrProtocolHTTPProxy`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
/// `kSecAttrProtocolHTTPSProxy`.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
/// `kSecAttrProtocolFTPProxy`.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
/// `kSecAttrProtocolSMB`.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb "
/// `kSecAttrProtocolRTSP`.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp"
/// `kSecAttrProtocolRTSPProxy`.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
/// `kSecAttrProtocolDAAP`.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap"
/// `kSecAttrProtocolEPPC`.
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc"
/// `kSecAttrProtocolIPP`.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp "
/// `kSecAttrProtocolNNTPS`.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps"
/// `kSecAttrProtocolLDAPS`.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps"
/// `kSecAttrProtocolTelnetS`.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels"
/// `kSecAttrProtocolIMAPS`.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps"
/// `kSecAttrProtocolIRCS`.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs"
/// `kSecAttrProtocolPOP3S`.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops"

// MARK: kSecAttrAuthenticationType values

/// `kSecAttrAuthenticationTypeNTLM`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
/// `kSecAttrAuthenticationTypeMSN`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
/// `kSecAttrAuthenticationTypeDPA`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
/// `kSecAttrAuthenticationTypeRPA`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
/// `kSecAttrAuthenticationTypeHTTPBasic`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
/// `kSecAttrAuthenticationTypeHTTPDigest`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
/// `kSecAttrAuthenticationTypeHTMLForm`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
/// `kSecAttrAuthenticationTypeDefault`.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"

// MARK: Key types, key classes and tokens

/// `kSecAttrKeyTypeRSA`.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"
/// `kSecAttrKeyTypeEC`: the older name of ``kSecAttrKeyTypeECSECPrimeRandom``.
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73"
/// `kSecAttrKeyTypeECSECPrimeRandom`: an elliptic-curve key (P-256 with 256 bits).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"
/// `kSecAttrKeyClassPublic`.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"
/// `kSecAttrKeyClassPrivate`.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1"
/// `kSecAttrKeyClassSymmetric`.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2"
/// `kSecAttrTokenIDSecureEnclave`: the key is made and kept in the Secure Enclave.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
