import Foundation

/// Latency samples in nanoseconds and the summary the report prints.
struct Samples {
    private(set) var values: [Int64] = []

    init(capacity: Int = 0) { values.reserveCapacity(capacity) }

    mutating func add(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        values.append(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The `q` quantile (0...1) in microseconds.
    func quantile(_ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)
        return Double(sorted[Swift.max(0, index)]) / 1000
    }

    var p50: Double { quantile(0.5) }
    var p99: Double { quantile(0.99) }
    var p999: Double { quantile(0.999) }
    var max: Double { Double(values.max() ?? 0) / 1000 }
}

/// Seconds of a `Duration`, as a double.
extension Duration {
    var seconds: Double {
        let (s, a) = components
        return Double(s) + Double(a) / 1e18
    }
}

/// Times `body` once.
func measure(_ body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return clock.now - start
}

/// Peak resident set size of this process, in bytes (VmHWM).
func peakRSS() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return digits * 1024
    }
    return 0
}

/// Resets the peak RSS counter (Linux `clear_refs` 5), so a later `peakRSS()` covers only what follows.
func resetPeakRSS() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}
