import KeychainAccessControl

/// Apple's strings of the SecItem vocabulary, each written once (rule book
/// §1a-§1e): the engine reads and writes dictionaries keyed by these, and the
/// `Security` module's `kSec…` constants and `SecKeyAlgorithm` values are
/// made from them, so the model and the API cannot spell a key two ways.
/// Each member is named as Apple's constant. An item class's and a
/// protection class's string lives in its enum (``SecItemClass``,
/// `ProtectionClass`) and is taken from there. Columns with no public
/// constant on iOS (`musr`, `alis`, `scrp`, `priv`, `modi`, …) appear as
/// literals in the schema only.
public enum SecName {

    // MARK: Item classes

    public static let kSecClass = "class"
    public static let kSecClassGenericPassword = SecItemClass.genericPassword.rawValue
    public static let kSecClassInternetPassword = SecItemClass.internetPassword.rawValue
    public static let kSecClassCertificate = SecItemClass.certificate.rawValue
    public static let kSecClassKey = SecItemClass.key.rawValue
    public static let kSecClassIdentity = SecItemClass.identity.rawValue

    // MARK: Item attributes

    public static let kSecAttrAccessible = "pdmn"
    public static let kSecAttrAccessControl = "accc"
    public static let kSecAttrAccessGroup = "agrp"
    public static let kSecAttrCreationDate = "cdat"
    public static let kSecAttrModificationDate = "mdat"
    public static let kSecAttrDescription = "desc"
    public static let kSecAttrComment = "icmt"
    public static let kSecAttrCreator = "crtr"
    public static let kSecAttrType = "type"
    public static let kSecAttrLabel = "labl"
    public static let kSecAttrIsInvisible = "invi"
    public static let kSecAttrIsNegative = "nega"
    public static let kSecAttrAccount = "acct"
    public static let kSecAttrService = "svce"
    public static let kSecAttrGeneric = "gena"
    public static let kSecAttrSecurityDomain = "sdmn"
    public static let kSecAttrServer = "srvr"
    public static let kSecAttrProtocol = "ptcl"
    public static let kSecAttrAuthenticationType = "atyp"
    public static let kSecAttrPort = "port"
    public static let kSecAttrPath = "path"
    public static let kSecAttrSynchronizable = "sync"
    public static let kSecAttrSynchronizableAny = "syna"
    public static let kSecAttrTokenID = "tkid"
    public static let kSecAttrSyncViewHint = "vwht"
    public static let kSecAttrPersistentReference = "persistref"
    public static let kSecAttrAccessGroupToken = "com.apple.token"
    public static let kSecAttrCertificateType = "ctyp"
    public static let kSecAttrCertificateEncoding = "cenc"
    public static let kSecAttrSubject = "subj"
    public static let kSecAttrIssuer = "issr"
    public static let kSecAttrSerialNumber = "slnr"
    public static let kSecAttrSubjectKeyID = "skid"
    public static let kSecAttrPublicKeyHash = "pkhh"

    // MARK: Key attributes

    public static let kSecAttrKeyClass = "kcls"
    public static let kSecAttrApplicationLabel = "klbl"
    public static let kSecAttrIsPermanent = "perm"
    public static let kSecAttrApplicationTag = "atag"
    public static let kSecAttrKeyCreator = "crtr"
    public static let kSecAttrKeyType = "type"
    public static let kSecAttrKeySizeInBits = "bsiz"
    public static let kSecAttrEffectiveKeySize = "esiz"
    public static let kSecAttrCanEncrypt = "encr"
    public static let kSecAttrCanDecrypt = "decr"
    public static let kSecAttrCanDerive = "drve"
    public static let kSecAttrCanSign = "sign"
    public static let kSecAttrCanVerify = "vrfy"
    public static let kSecAttrCanWrap = "wrap"
    public static let kSecAttrCanUnwrap = "unwp"
    public static let kSecAttrIsSensitive = "sens"
    public static let kSecAttrIsExtractable = "extr"
    public static let kSecPrivateKeyAttrs = "private"
    public static let kSecPublicKeyAttrs = "public"

    // MARK: Search, return, value and use keys

    public static let kSecMatchLimit = "m_Limit"
    public static let kSecMatchLimitOne = "m_LimitOne"
    public static let kSecMatchLimitAll = "m_LimitAll"
    public static let kSecMatchCaseInsensitive = "m_CaseInsensitive"
    public static let kSecMatchPolicy = "m_Policy"
    public static let kSecMatchIssuers = "m_Issuers"
    public static let kSecMatchHostOrSubdomainOfHost = "m_HostOrSubdomainOfHost"
    public static let kSecMatchValidOnDate = "m_ValidOnDate"
    public static let kSecMatchTrustedOnly = "m_TrustedOnly"
    public static let kSecMatchItemList = "m_ItemList"
    public static let kSecMatchSearchList = "m_SearchList"
    public static let kSecMatchEmailAddressIfPresent = "m_EmailAddressIfPresent"
    public static let kSecMatchSubjectContains = "m_SubjectContains"
    public static let kSecMatchSubjectStartsWith = "m_SubjectStartsWith"
    public static let kSecMatchSubjectEndsWith = "m_SubjectEndsWith"
    public static let kSecMatchSubjectWholeString = "m_SubjectWholeString"
    public static let kSecMatchDiacriticInsensitive = "m_DiacriticInsensitive"
    public static let kSecMatchWidthInsensitive = "m_WidthInsensitive"
    public static let kSecReturnData = "r_Data"
    public static let kSecReturnAttributes = "r_Attributes"
    public static let kSecReturnRef = "r_Ref"
    public static let kSecReturnPersistentRef = "r_PersistentRef"
    public static let kSecValueData = "v_Data"
    public static let kSecValueRef = "v_Ref"
    public static let kSecValuePersistentRef = "v_PersistentRef"
    public static let kSecUseOperationPrompt = "u_OpPrompt"
    public static let kSecUseAuthenticationUI = "u_AuthUI"
    public static let kSecUseAuthenticationUIAllow = "u_AuthUIA"
    public static let kSecUseAuthenticationUIFail = "u_AuthUIF"
    public static let kSecUseAuthenticationUISkip = "u_AuthUIS"
    public static let kSecUseAuthenticationContext = "u_AuthCtx"
    public static let kSecUseDataProtectionKeychain = "nleg"
    public static let kSecUseNoAuthenticationUI = "u_NoAuthUI"

    // MARK: kSecAttrAccessible values

    public static let kSecAttrAccessibleWhenUnlocked = ProtectionClass.ak.rawValue
    public static let kSecAttrAccessibleAfterFirstUnlock = ProtectionClass.ck.rawValue
    public static let kSecAttrAccessibleAlways = ProtectionClass.dk.rawValue
    public static let kSecAttrAccessibleWhenUnlockedThisDeviceOnly = ProtectionClass.aku.rawValue
    public static let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly = ProtectionClass.cku.rawValue
    public static let kSecAttrAccessibleAlwaysThisDeviceOnly = ProtectionClass.dku.rawValue
    public static let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly = ProtectionClass.akpu.rawValue

    // MARK: kSecAttrProtocol values (four-character codes; note the trailing spaces)

    public static let kSecAttrProtocolFTP = "ftp "
    public static let kSecAttrProtocolFTPAccount = "ftpa"
    public static let kSecAttrProtocolHTTP = "http"
    public static let kSecAttrProtocolIRC = "irc "
    public static let kSecAttrProtocolNNTP = "nntp"
    public static let kSecAttrProtocolPOP3 = "pop3"
    public static let kSecAttrProtocolSMTP = "smtp"
    public static let kSecAttrProtocolSOCKS = "sox "
    public static let kSecAttrProtocolIMAP = "imap"
    public static let kSecAttrProtocolLDAP = "ldap"
    public static let kSecAttrProtocolAppleTalk = "atlk"
    public static let kSecAttrProtocolAFP = "afp "
    public static let kSecAttrProtocolTelnet = "teln"
    public static let kSecAttrProtocolSSH = "ssh "
    public static let kSecAttrProtocolFTPS = "ftps"
    public static let kSecAttrProtocolHTTPS = "htps"
    public static let kSecAttrProtocolHTTPProxy = "htpx"
    public static let kSecAttrProtocolHTTPSProxy = "htsx"
    public static let kSecAttrProtocolFTPProxy = "ftpx"
    public static let kSecAttrProtocolSMB = "smb "
    public static let kSecAttrProtocolRTSP = "rtsp"
    public static let kSecAttrProtocolRTSPProxy = "rtsx"
    public static let kSecAttrProtocolDAAP = "daap"
    public static let kSecAttrProtocolEPPC = "eppc"
    public static let kSecAttrProtocolIPP = "ipp "
    public static let kSecAttrProtocolNNTPS = "ntps"
    public static let kSecAttrProtocolLDAPS = "ldps"
    public static let kSecAttrProtocolTelnetS = "tels"
    public static let kSecAttrProtocolIMAPS = "imps"
    public static let kSecAttrProtocolIRCS = "ircs"
    public static let kSecAttrProtocolPOP3S = "pops"

    // MARK: kSecAttrAuthenticationType values

    public static let kSecAttrAuthenticationTypeNTLM = "ntlm"
    public static let kSecAttrAuthenticationTypeMSN = "msna"
    public static let kSecAttrAuthenticationTypeDPA = "dpaa"
    public static let kSecAttrAuthenticationTypeRPA = "rpaa"
    public static let kSecAttrAuthenticationTypeHTTPBasic = "http"
    public static let kSecAttrAuthenticationTypeHTTPDigest = "httd"
    public static let kSecAttrAuthenticationTypeHTMLForm = "form"
    public static let kSecAttrAuthenticationTypeDefault = "dflt"

    // MARK: Key types, key classes and tokens

    public static let kSecAttrKeyTypeRSA = "42"
    public static let kSecAttrKeyTypeEC = "73"
    public static let kSecAttrKeyTypeECSECPrimeRandom = "73"
    public static let kSecAttrKeyClassPublic = "0"
    public static let kSecAttrKeyClassPrivate = "1"
    public static let kSecAttrKeyClassSymmetric = "2"
    public static let kSecAttrTokenIDSecureEnclave = "com.apple.setoken"

    // MARK: Key algorithms (SecKeyAlgorithm)

    public static let kSecKeyAlgorithmECDSASignatureMessageX962SHA256 = KeyAlgorithm.messageX962SHA256.rawValue
    public static let kSecKeyAlgorithmECDSASignatureDigestX962SHA256 = KeyAlgorithm.digestX962SHA256.rawValue
    public static let kSecKeyAlgorithmECDSASignatureRFC4754 = KeyAlgorithm.rfc4754.rawValue
    public static let kSecKeyAlgorithmECDHKeyExchangeStandard = "algid:keyexchange:ECDH"
    public static let kSecKeyAlgorithmECDHKeyExchangeCofactor = "algid:keyexchange:ECDHC"
    public static let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM =
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"
}
