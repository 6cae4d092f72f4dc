import SyncKernel

/// The `audio:` section of `config.yaml` (the kernel's keys aside).
///
/// ```yaml
/// audio:
///   max_size: 120GB
///   cache_ahead: 5
/// ```
public struct AudioSettings: Codable, Sendable {
    /// The most room downloaded tracks may take (120 GB). Stream-cached tracks are evicted
    /// least recently played first to make room; kept downloads never are.
    public var maxSize: ByteCount
    /// How many tracks after the one played are cached ahead (5).
    public var cacheAhead: Int

    /// The defaults: 120 GB, 5 tracks ahead.
    public init() {
        maxSize = ByteCount(120_000_000_000)
        cacheAhead = 5
    }

    enum CodingKeys: String, CodingKey {
        case maxSize = "max_size"
        case cacheAhead = "cache_ahead"
    }

    public init(from decoder: any Decoder) throws {
        let defaults = AudioSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxSize = try container.decodeIfPresent(ByteCount.self, forKey: .maxSize) ?? defaults.maxSize
        cacheAhead = try container.decodeIfPresent(Int.self, forKey: .cacheAhead) ?? defaults.cacheAhead
        guard maxSize.bytes > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .maxSize,
                in: container,
                debugDescription: "max_size must be larger than 0, e.g. 120GB"
            )
        }
        guard (0...100).contains(cacheAhead) else {
            throw DecodingError.dataCorruptedError(
                forKey: .cacheAhead,
                in: container,
                debugDescription: "cache_ahead must be between 0 and 100 tracks"
            )
        }
    }
}
