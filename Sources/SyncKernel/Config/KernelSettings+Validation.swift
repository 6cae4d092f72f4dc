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
        if !(1...256).contains(sync.concurrency) { try refuse("sync.concurrency", "must be between 1 and 256") }
        if !(0.01...60).contains(sync.pollInterval.value) {
            try refuse("sync.poll_interval", "must be between 10ms and 60s")
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
    }
}
