import Foundation

extension KernelSettings {
    /// Refuses values that parse but cannot work (a runner polling in a tight loop, no
    /// concurrency at all), naming the key and what it accepts.
    func validate(file: String) throws {
        func refuse(_ key: String, _ rule: String) throws -> Never {
            throw FerryError(.configuration, "\(file): \(key) \(rule)")
        }
        if dataDir.trimmingCharacters(in: .whitespaces).isEmpty {
            try refuse("data_dir", "is empty; name a folder, e.g. .ferry")
        }
        if server.trimmingCharacters(in: .whitespaces).isEmpty {
            try refuse("server", "is empty; write `embedded` or the server's base URL")
        }
        if let problem = Self.serverProblem(server) { try refuse("server", problem) }
        if !(1...256).contains(sync.concurrency) { try refuse("sync.concurrency", "must be between 1 and 256") }
        if !(0.01...60).contains(sync.pollInterval.value) {
            try refuse("sync.poll_interval", "must be between 10ms and 60s")
        }
        if !(0.1...300).contains(network.probeTimeout.value) {
            try refuse("network.probe_timeout", "must be between 100ms and 5m")
        }
        if sync.requestTimeout.value < 0.1 { try refuse("sync.request_timeout", "must be at least 100ms") }
        if sync.pullEvery.value < 1 { try refuse("sync.pull_every", "must be at least 1s") }
        if !(1...500).contains(sync.batchSize) {
            try refuse("sync.batch_size", "must be between 1 and 500 (1 sends each operation alone)")
        }
        if !(ByteCount(64 << 10)...ByteCount(1 << 32)).contains(sync.maxAnswer) {
            try refuse("sync.max_answer", "must be between 64KiB and 4GiB, e.g. 32MB")
        }
        if !(0...1_000_000).contains(readCache.maxEntries) {
            try refuse("read_cache.max_entries", "must be between 0 (no memory tier) and 1000000")
        }
        if !(0.005...10).contains(readCache.watchInterval.value) {
            try refuse("read_cache.watch_interval", "must be between 5ms and 10s")
        }
        if !sync.batchPath.hasPrefix("/") || sync.batchPath.contains("?") {
            try refuse("sync.batch_path", "must be a path below the server, starting with /, e.g. /v1/batch")
        }
        try retry.validate(at: "retry", file: file)
    }

    /// Why `server` cannot be used, or nil when it can: it must be `embedded` or an
    /// http(s) URL with a host. The value is quoted unless it may carry a password.
    static func serverProblem(_ server: String) -> String? {
        if server == "embedded" || HTTPAddress.hasHost(server) { return nil }
        let quotable = !server.contains("@")
        let rest = server.range(of: "://").map { String(server[$0.upperBound...]) } ?? server
        let example = quotable && !rest.isEmpty ? "http://\(rest)" : "https://ferry.example.com"
        let shown = quotable ? " (`\(server)`)" : ""
        return "must be `embedded` or an http(s) URL with a host\(shown); write e.g. \(example), or `embedded` for the built-in server"
    }
}

extension KernelSettings {
    /// Refuses the `remote:` of a plugin section or a declared domain that cannot be used
    /// (`serverProblem`), naming its key path (`plugins.recipes.remote`) and, when known,
    /// its line: every command fails on it, before anything is sent.
    static func validateRemote(_ remote: String?, at key: String, line: Int?, file: String) throws {
        guard let remote, let problem = serverProblem(remote) else { return }
        throw FerryError(.configuration, "\(file)\(line.map { ":\($0)" } ?? ""): \(key) \(problem)")
    }
}

extension RetryOverride {
    /// Refuses a backoff that cannot work, wherever it is written (`key` is its key path):
    /// checked when the file is read, even when no operation uses it.
    func validate(at key: String, file: String) throws {
        func refuse(_ field: String, _ rule: String) throws -> Never {
            throw FerryError(.configuration, "\(file): \(key).\(field) \(rule)")
        }
        if let maxAttempts, maxAttempts < 1 {
            try refuse("max_attempts", "is \(maxAttempts); it must be at least 1 (1: no retry after the first failure)")
        }
        if let multiplier, !(multiplier.isFinite && multiplier >= 1) {
            try refuse("multiplier", "is \(multiplier); it must be at least 1 (1: every delay is base_delay)")
        }
        if let jitter, !(0...1).contains(jitter) {
            try refuse("jitter", "is \(jitter); it must be between 0 (no randomness) and 1")
        }
        if let baseDelay, !(baseDelay.value.isFinite && baseDelay.value >= 0) {
            try refuse("base_delay", "must be 0 or more, e.g. 1s")
        }
        if let maxDelay, !(maxDelay.value.isFinite && maxDelay.value >= 0) {
            try refuse("max_delay", "must be 0 or more, e.g. 5m")
        }
    }
}

extension PluginKernelSettings {
    /// Refuses the section's retry values out of range: its own `retry:` and each
    /// operation's (`path` is the section's key path, e.g. `plugins.recipes`).
    func validate(at path: String, file: String) throws {
        try retry?.validate(at: "\(path).retry", file: file)
        for (kind, operation) in operations.sorted(by: { $0.key < $1.key }) {
            try operation.retry?.validate(at: "\(path).operations.\(kind).retry", file: file)
        }
    }
}

extension DeclaredDomainSettings {
    /// Refuses the domain's retry values out of range, its own and each operation's.
    func validateRetry(at path: String, file: String) throws {
        try retry?.validate(at: "\(path).retry", file: file)
        for (kind, operation) in operations.sorted(by: { $0.key < $1.key }) {
            try operation.retry?.validate(at: "\(path).operations.\(kind).retry", file: file)
        }
    }
}
