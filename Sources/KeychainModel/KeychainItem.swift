import Crypto
import KeychainAccessControl

/// The two item classes of spec/keychain-flows.md.
public enum ItemClass: String, Sendable, Hashable, CaseIterable, Codable {
    case genericPassword, key
}

/// Item attributes a query can name. `nil` means "not given" in a query and
/// "absent" on an item.
public struct ItemAttributes: Sendable, Hashable {
    public var itemClass: ItemClass
    public var service: String?
    public var account: String?
    public var accessGroup: String?
    public var synchronizable: Bool?
    public var applicationTag: String?
    public var keyClass: String?
    public var tokenID: String?

    public init(itemClass: ItemClass, service: String? = nil, account: String? = nil, accessGroup: String? = nil,
                synchronizable: Bool? = nil, applicationTag: String? = nil, keyClass: String? = nil, tokenID: String? = nil) {
        self.itemClass = itemClass
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.applicationTag = applicationTag
        self.keyClass = keyClass
        self.tokenID = tokenID
    }

    /// The primary key of the class: (service, account, accessGroup,
    /// synchronizable) for passwords; (applicationTag, keyClass, tokenID,
    /// accessGroup) for keys.
    public var primaryKey: [String?] {
        switch itemClass {
        case .genericPassword: return ["gp", service, account, accessGroup, (synchronizable ?? false) ? "1" : "0"]
        case .key: return ["key", applicationTag, keyClass ?? "private", tokenID, accessGroup]
        }
    }

    /// Whether an item with these attributes matches a query naming `query`'s attributes.
    public func matches(_ query: ItemAttributes) -> Bool {
        func same<T: Equatable>(_ wanted: T?, _ have: T?) -> Bool { wanted == nil || wanted == have }
        return query.itemClass == itemClass && same(query.service, service) && same(query.account, account)
            && same(query.accessGroup, accessGroup) && (query.synchronizable == nil || query.synchronizable == (synchronizable ?? false))
            && same(query.applicationTag, applicationTag) && same(query.keyClass, keyClass) && same(query.tokenID, tokenID)
    }
}

/// A stored item: attributes, access control, and its secret.
struct StoredItem: Sendable {
    var attributes: ItemAttributes
    let access: AccessControl
    var data: [UInt8]
    let key: P256.Signing.PrivateKey?

    /// Whether reading or changing the secret needs user authentication.
    var readNeedsAuthentication: Bool {
        if case .requires = access.rule(for: .useItem) { return true }
        return false
    }

    /// A Secure Enclave key whose access control lacks privateKeyUsage: it
    /// has no sign, decrypt or key-exchange entry (spec/keychain-flows.md).
    var lacksKeyUseEntries: Bool {
        attributes.tokenID == "secureEnclave" && !access.flags.contains(.privateKeyUsage)
    }

    /// The access decision for this item, with the Secure Enclave rule above.
    func evaluate(_ operation: KeychainOperation, device: DeviceState, evidence: Evidence) -> Decision {
        if operation.isKeyUse && lacksKeyUseEntries { return .denied(.operationNotAllowed) }
        return access.evaluate(operation, device: device, evidence: evidence)
    }
}
