import Foundation
import Testing

@testable import SyncKernel

@Suite("Delivery plan: due operations grouped into deliveries")
struct DeliveryPlanTests {
    /// Due operations named `plugin-entity`, in the order given (their due order).
    static func due(_ names: String...) -> [QueuedOperation] {
        names.enumerated().map { index, name in
            let parts = name.split(separator: "-", maxSplits: 1).map(String.init)
            let at = Date(timeIntervalSince1970: 1_800_000_000 + Double(index))
            return QueuedOperation(
                sequence: Int64(index + 1),
                id: UUID(),
                plugin: parts[0],
                kind: "put",
                entity: parts[1],
                payload: Data("{}".utf8),
                base: nil,
                createdAt: at,
                attempts: 0,
                nextAttemptAt: at,
                state: .pending,
                leaseOwner: nil,
                leaseUntil: nil,
                lastError: nil,
                dispatched: false,
                force: false,
                requiresUnmetered: false,
                account: nil
            )
        }
    }

    static func names(_ deliveries: [[QueuedOperation]]) -> [[String]] {
        deliveries.map { $0.map { "\($0.plugin)-\($0.entity)" } }
    }

    static func plan(_ due: [QueuedOperation], slots: Int, sizes: [String: Int] = [:], size: Int = 100) -> [[String]] {
        names(DeliveryPlan.deliveries(due, slots: slots) { sizes[$0] ?? size })
    }

    @Test func operationsOfOnePluginLeaveTogetherInTheOrderTheyAreDue() {
        let due = Self.due("a-1", "b-1", "a-2", "c-1", "b-2", "a-3")
        #expect(Self.plan(due, slots: 8) == [["a-1", "a-2", "a-3"], ["b-1", "b-2"], ["c-1"]])
    }

    @Test func atMostSlotsDeliveriesAndTheRestIsLeftForLater() {
        let due = Self.due("a-1", "b-1", "c-1", "a-2", "d-1", "b-2")
        // c and d have no slot: they are not in the plan (not leased), a and b still fill up.
        #expect(Self.plan(due, slots: 2) == [["a-1", "a-2"], ["b-1", "b-2"]])
        #expect(Self.plan(due, slots: 1) == [["a-1", "a-2"]])
    }

    @Test func aDeliveryHoldsAtMostTheBatchSizeAndAFullPluginTakesAnotherSlot() {
        let due = Self.due("a-1", "a-2", "a-3", "a-4", "a-5", "b-1")
        #expect(Self.plan(due, slots: 8, size: 2) == [["a-1", "a-2"], ["a-3", "a-4"], ["a-5"], ["b-1"]])
        // Two slots: a-5 and b-1 wait for a later pass.
        #expect(Self.plan(due, slots: 2, size: 2) == [["a-1", "a-2"], ["a-3", "a-4"]])
    }

    @Test func aPluginMappedToOneSendsEachOperationAlone() {
        let due = Self.due("a-1", "b-1", "a-2", "b-2", "b-3", "a-3")
        #expect(
            Self.plan(due, slots: 8, sizes: ["a": 1]) == [["a-1"], ["b-1", "b-2", "b-3"], ["a-2"], ["a-3"]]
        )
        #expect(Self.plan(due, slots: 3, sizes: ["a": 1]) == [["a-1"], ["b-1", "b-2", "b-3"], ["a-2"]])
        #expect(Self.plan(due, slots: 8, size: 1) == [["a-1"], ["b-1"], ["a-2"], ["b-2"], ["b-3"], ["a-3"]])
    }

    @Test func everyPlannedOperationIsPlannedOnceAndNoneIsInvented() {
        let due = Self.due("a-1", "b-1", "a-2", "c-1", "b-2", "a-3", "c-2", "a-4")
        let planned = DeliveryPlan.deliveries(due, slots: 3) { $0 == "a" ? 2 : 5 }
        let sequences = planned.joined().map(\.sequence)
        #expect(Set(sequences).count == sequences.count)
        #expect(Set(sequences).isSubset(of: Set(due.map(\.sequence))))
        for delivery in planned {
            #expect(Set(delivery.map(\.plugin)).count == 1)
            // Within a delivery, due order is kept.
            #expect(delivery.map(\.sequence) == delivery.map(\.sequence).sorted())
        }
        #expect(Self.names(planned) == [["a-1", "a-2"], ["b-1", "b-2"], ["c-1", "c-2"]])
    }

    @Test func nothingDueIsAnEmptyPlan() {
        #expect(DeliveryPlan.deliveries([], slots: 4) { _ in 100 }.isEmpty)
    }
}
