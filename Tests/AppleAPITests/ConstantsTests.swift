import Foundation
import KeychainAccessControl
import KeychainModel
import LocalAuthentication
import Security
import Testing

/// Apple's values (rule book §1), the Core Foundation stand-ins and the error helpers.
@Suite struct ConstantsTests {
    @Test func itemKeysHaveApplesStrings() {
        let pairs: [(CFString, String)] = [
            (kSecClass, "class"), (kSecClassGenericPassword, "genp"), (kSecClassInternetPassword, "inet"),
            (kSecClassCertificate, "cert"), (kSecClassKey, "keys"), (kSecClassIdentity, "idnt"),
            (kSecAttrAccessible, "pdmn"), (kSecAttrAccessControl, "accc"), (kSecAttrAccessGroup, "agrp"),
            (kSecAttrAccount, "acct"), (kSecAttrService, "svce"), (kSecAttrSynchronizable, "sync"),
            (kSecAttrSynchronizableAny, "syna"), (kSecAttrPersistentReference, "persistref"),
            (kSecAttrAccessGroupToken, "com.apple.token"), (kSecAttrKeyType, "type"), (kSecAttrType, "type"),
            (kSecAttrApplicationTag, "atag"), (kSecAttrApplicationLabel, "klbl"),
            (kSecAttrKeyClassPrivate, "1"), (kSecAttrKeyTypeECSECPrimeRandom, "73"), (kSecAttrKeyTypeEC, "73"),
            (kSecAttrTokenIDSecureEnclave, "com.apple.setoken"), (kSecPrivateKeyAttrs, "private"),
            (kSecMatchLimit, "m_Limit"), (kSecMatchLimitAll, "m_LimitAll"), (kSecReturnPersistentRef, "r_PersistentRef"),
            (kSecValueData, "v_Data"), (kSecUseAuthenticationContext, "u_AuthCtx"), (kSecUseAuthenticationUISkip, "u_AuthUIS"),
            (kSecUseDataProtectionKeychain, "nleg"), (kSecUseOperationPrompt, "u_OpPrompt"),
            (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"), (kSecAttrAccessibleAlways, "dk"),
            (kSecAttrProtocolFTP, "ftp "), (kSecAttrProtocolHTTPS, "htps"), (kSecAttrAuthenticationTypeHTTPBasic, "http"),
        ]
        for (constant, value) in pairs { #expect(constant as String == value) }
    }

    @Test func statusesMatchTheModel() {
        let pairs: [(OSStatus, SecStatus)] = [
            (errSecSuccess, .success), (errSecUnimplemented, .unimplemented), (errSecParam, .param),
            (errSecAllocate, .allocate), (errSecUserCanceled, .userCanceled), (errSecBadReq, .badReq),
            (errSecInternalComponent, .internalComponent), (errSecCoreFoundationUnknown, .coreFoundationUnknown),
            (errSecNotAvailable, .notAvailable), (errSecReadOnly, .readOnly), (errSecAuthFailed, .authFailed),
            (errSecDuplicateItem, .duplicateItem), (errSecItemNotFound, .itemNotFound), (errSecNoSuchAttr, .noSuchAttr),
            (errSecInvalidItemRef, .invalidItemRef), (errSecNoSuchClass, .noSuchClass),
            (errSecInteractionNotAllowed, .interactionNotAllowed), (errSecInteractionRequired, .interactionRequired),
            (errSecDataNotAvailable, .dataNotAvailable), (errSecNoAccessForItem, .noAccessForItem), (errSecIO, .io),
            (errSecDecode, .decode),
            (errSecMissingEntitlement, .missingEntitlement), (errSecRestrictedAPI, .restrictedAPI),
            (errSecVerifyFailed, .verifyFailed),
        ]
        // errSecInternal (-26276) is the model's, not in iOS's SDK (docs/apple-api.md, Surface).
        #expect(pairs.count == SecStatus.allCases.filter { $0 != .internal }.count)
        for (constant, status) in pairs {
            #expect(constant == status.rawValue)
            #expect(SecCopyErrorMessageString(constant, nil) as String? == status.message)
        }
        #expect(SecCopyErrorMessageString(-1, nil) == nil)
    }

    @Test func flagBitsAndAlgorithms() {
        #expect(SecAccessControlCreateFlags.userPresence.rawValue == 1)
        #expect(SecAccessControlCreateFlags.biometryAny == .touchIDAny)
        #expect(SecAccessControlCreateFlags.biometryCurrentSet.rawValue == 1 << 3)
        #expect(SecAccessControlCreateFlags.touchIDCurrentSet == .biometryCurrentSet)
        #expect(SecAccessControlCreateFlags.devicePasscode.rawValue == 1 << 4)
        #expect(SecAccessControlCreateFlags.companion.rawValue == 1 << 5)
        #expect(SecAccessControlCreateFlags.or.rawValue == 1 << 14)
        #expect(SecAccessControlCreateFlags.and.rawValue == 1 << 15)
        #expect(SecAccessControlCreateFlags.privateKeyUsage.rawValue == 1 << 30)
        #expect(SecAccessControlCreateFlags.applicationPassword.rawValue == 1 << 31)
        #expect(SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256.rawValue as String == "algid:sign:ECDSA:message-X962:SHA256")
        #expect(SecKeyAlgorithm.ecdsaSignatureDigestX962SHA256.rawValue as String == "algid:sign:ECDSA:digest-X962:SHA256")
        #expect(SecKeyAlgorithm.ecdsaSignatureRFC4754.rawValue as String == "algid:sign:ECDSA:RFC4754")
        #expect(SecKeyAlgorithm.ecdhKeyExchangeStandard.rawValue as String == "algid:keyexchange:ECDH")
        #expect(SecKeyAlgorithm.ecdhKeyExchangeCofactor.rawValue as String == "algid:keyexchange:ECDHC")
        #expect(
            SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM.rawValue as String
                == "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")
        #expect(SecKeyOperationType.keyExchange.rawValue == 4)
    }

    @Test func typeIdentifiersAreDistinct() {
        let identifiers = [
            CFStringGetTypeID(), CFDataGetTypeID(), CFDictionaryGetTypeID(), CFArrayGetTypeID(), CFBooleanGetTypeID(),
            CFNumberGetTypeID(), CFDateGetTypeID(), CFErrorGetTypeID(), SecAccessControlGetTypeID(), SecKeyGetTypeID(),
        ]
        #expect(Set(identifiers).count == identifiers.count)
        #expect(CFGetTypeID(kSecClass) == CFStringGetTypeID())
        #expect(CFGetTypeID(kCFBooleanTrue) == CFBooleanGetTypeID())
        #expect(CFGetTypeID(true as AnyObject) == CFBooleanGetTypeID())
        #expect(CFGetTypeID(1 as AnyObject) == CFNumberGetTypeID())
        #expect(CFGetTypeID(Data() as AnyObject) == CFDataGetTypeID())
        #expect(CFGetTypeID([String: Any]() as CFDictionary) == CFDictionaryGetTypeID())
        #expect(CFGetTypeID(nil) != CFStringGetTypeID())
    }

    @Test func cfErrorFunctions() throws {
        let created = try #require(
            CFErrorCreate(
                kCFAllocatorDefault, kCFErrorDomainOSStatus, CFIndex(errSecItemNotFound),
                [NSLocalizedDescriptionKey: "gone"] as CFDictionary))
        #expect(CFErrorGetCode(created) == -25300)
        #expect(CFErrorGetDomain(created) as String == NSOSStatusErrorDomain)
        #expect(CFErrorCopyDescription(created) as String == "gone")
        #expect((CFErrorCopyUserInfo(created) as? [String: Any])?[NSLocalizedDescriptionKey] as? String == "gone")
        #expect(CFErrorCreate(nil, nil, 0, nil) == nil)
        let unmanaged: Unmanaged<CFError>? = Unmanaged.passRetained(created)
        let bridged = try #require(unmanaged?.takeRetainedValue() as (any Error)?)
        #expect((bridged as NSError).code == -25300)
    }

    @Test func localAuthenticationValues() {
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion.rawValue == 4)
        #expect(LABiometryType.opticID.rawValue == 4)
        #expect(LAAccessControlOperation.useKeyKeyExchange.rawValue == 5)
        #expect(LAError.Code.notInteractive.rawValue == -1004)
        #expect(LAError.Code.companionNotAvailable.rawValue == -11)
        #expect(LAError.Code.touchIDLockout == .biometryLockout)
        #expect(LATouchIDAuthenticationMaximumAllowableReuseDuration == 300)
        #expect(LAErrorDomain == "com.apple.LocalAuthentication")
        #expect(kLAErrorUserCancel == Int32(LAError.userCancel.rawValue))
    }
}
