import Foundation
import LocalAuthentication
import SecuritySimulation
import Testing

/// One of concurrent saves under one identifier wins (issue 61 item 3,
/// §10 LA12′): the store checked the identifier, awaited the device, then
/// inserted, so another save of the same identifier could run between the
/// check and the insert (before the fix, 3 of 4 saves won in round 0).
@Suite struct RightStoreSaveTests {
    @Test func oneOfConcurrentSavesWins() async {
        await Simulation.withNew {
            for round in 0..<300 {
                let identifier = "r\(round)"
                let wins = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            (try? await LARightStore.shared.saveRight(LARight(), identifier: identifier)) != nil
                        }
                    }
                    var wins = 0
                    for await won in group where won { wins += 1 }
                    return wins
                }
                #expect(wins == 1, "round \(round): \(wins) saves succeeded")
                if wins != 1 { break }
            }
        }
    }
}
