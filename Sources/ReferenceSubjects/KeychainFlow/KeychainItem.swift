import KeychainAccessControl

/// The item classes of the keychain-flow vocabulary (docs/traces.md).
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

    public init(
        itemClass: ItemClass, service: String? = nil, account: String? = nil, accessGroup: String? = nil,
        synchronizable: Bool? = nil, applicationTag: String? = nil, keyClass: String? = nil, tokenID: String? = nil
    ) {
        self.itemClass = itemClass
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.applicationTag = applicationTag
        self.keyClass = keyClass
        self.tokenID = tokenID
    }
}
