import Foundation
internal import KeychainAccessControl
internal import KeychainModel
internal import SecuritySimulation

// SecItemAdd, SecItemCopyMatching, SecItemUpdate and SecItemDelete with
// Apple's Swift signatures (rule book §6). Each converts its dictionaries
// to the model's values (SecValueBridge.swift), asks the model, and hands
// back the model's status and result: every rule is the model's. A
// dictionary that does not convert (a key that is not a string) answers
// errSecParam without reaching the model.

/// `SecItemAdd(_:_:)`: adds the item `attributes` describe; `result`, when
/// not nil, receives what the `kSecReturn…` keys ask for.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    let simulation = Simulation.current
    guard let values = _secValues(attributes, for: simulation) else { return unreadable(.add) }
    let wantsResult = result != nil
    let outcome = simulation.withEngine { $0.add(values, wantsResult: wantsResult) }
    return finish(outcome, result, simulation)
}

/// `SecItemCopyMatching(_:_:)`: finds the items `query` describes; `result`,
/// when not nil, receives what the `kSecReturn…` keys ask for.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    let simulation = Simulation.current
    guard let values = _secValues(query, for: simulation) else { return unreadable(.copyMatching) }
    let wantsResult = result != nil
    let outcome = simulation.withEngine { $0.copyMatching(values, wantsResult: wantsResult) }
    return finish(outcome, result, simulation)
}

/// `SecItemUpdate(_:_:)`: changes the items `query` finds as `attributesToUpdate` says.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    let simulation = Simulation.current
    guard let values = _secValues(query, for: simulation), let changes = _secValues(attributesToUpdate, for: simulation) else {
        return unreadable(.update)
    }
    return simulation.withEngine { $0.update(values, changes) }.status.rawValue
}

/// `SecItemDelete(_:)`: deletes the items `query` finds.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    let simulation = Simulation.current
    guard let values = _secValues(query, for: simulation) else { return unreadable(.delete) }
    return simulation.withEngine { $0.delete(values) }.status.rawValue
}

/// errSecParam for a dictionary the model cannot be given, logged by the model.
private func unreadable(_ call: SecCall) -> OSStatus {
    Simulation.current.withEngine { $0.refuseUnreadable(call) }.status.rawValue
}

/// Writes the model's result, if it gave one and the caller passed a
/// pointer, and returns its status. Objects are made after the model's
/// lock is released (a `SecKey` takes the lock when it goes away).
private func finish(_ outcome: SecOutcome, _ result: UnsafeMutablePointer<CFTypeRef?>?, _ simulation: Simulation) -> OSStatus {
    if let result, let value = outcome.result {
        result.pointee = cfObject(value, in: simulation)
    }
    return outcome.status.rawValue
}
