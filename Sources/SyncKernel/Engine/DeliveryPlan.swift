/// How due operations leave: each alone, or together with others of the same plugin in
/// one batch request.
enum DeliveryPlan {
    /// Groups `due` (in the order it is due) into at most `slots` deliveries of operations
    /// of one plugin, at most `batchSize(plugin)` each. Operations that fit in no delivery
    /// are left for a later pass.
    static func deliveries(
        _ due: [QueuedOperation],
        slots: Int,
        batchSize: (String) -> Int
    ) -> [[QueuedOperation]] {
        var deliveries: [[QueuedOperation]] = []
        var open: [String: Int] = [:]
        for operation in due {
            if let index = open[operation.plugin], deliveries[index].count < batchSize(operation.plugin) {
                deliveries[index].append(operation)
            } else if deliveries.count < slots {
                open[operation.plugin] = deliveries.count
                deliveries.append([operation])
            }
        }
        return deliveries
    }
}
