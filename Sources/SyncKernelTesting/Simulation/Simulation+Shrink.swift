extension Simulation {
    /// The shortest list of events found that still fails like `verdict`: chunks of
    /// events are removed, halving their size down to single events, and a removal is kept
    /// whenever the run still breaks one of the same invariants. Deterministic, as runs
    /// are: the same failure shrinks to the same trace.
    ///
    /// - Parameter budget: the most runs to spend.
    public func shrink(
        _ events: [SimulationEvent],
        failing verdict: SimulationVerdict,
        budget: Int = 300
    ) async -> (events: [SimulationEvent], verdict: SimulationVerdict) {
        // Only the events up to the failing step matter.
        var current = Array(events.prefix(verdict.steps))
        var best = verdict
        var runs = 0
        var chunk = max(1, current.count / 2)
        while runs < budget {
            var removed = false
            var start = 0
            while start < current.count, runs < budget {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                runs += 1
                let attempt = await run(candidate)
                if attempt.failsLike(verdict) {
                    current = Array(candidate.prefix(attempt.steps))
                    best = attempt
                    removed = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !removed { break }
            if !removed { chunk = max(1, chunk / 2) }
        }
        return (current, best)
    }
}
