/// Which faults the server injects, set at start (``FerryServerConfiguration/faults``) or at run
/// time through `PUT /admin/faults`. Faults never apply to `/admin` or `/metrics`.
///
/// Rates are probabilities in 0...1 drawn from a generator seeded with ``seed``, so a run is
/// reproducible. ``failNext`` is deterministic: the next `count` matching requests get `kind`.
public struct FaultSettings: Sendable, Equatable, Codable {
    /// Probability of answering 500 `injected_fault`.
    public var errorRate: Double
    /// Probability of answering 429 `rate_limited` with `Retry-After`.
    public var rateLimitRate: Double
    /// Probability of answering 503 `unavailable` with `Retry-After`.
    public var unavailableRate: Double
    /// The `Retry-After` value, in seconds, sent with injected 429s and 503s.
    public var retryAfterSeconds: Int
    /// Latency added before every matching request is handled, in milliseconds.
    public var latencyMilliseconds: Int
    /// Probability that the request is handled but the connection is closed after half the response body.
    public var dropRate: Double
    /// Probability that the request is handled but the body is cut short of its `Content-Length`.
    public var truncateRate: Double
    /// Deterministic faults for the next requests, applied before the rates.
    public var failNext: FailNext?
    /// When set, faults apply only to paths starting with this prefix (e.g. `/v1/movies`).
    public var pathPrefix: String?
    /// Seed of the generator behind the rates.
    public var seed: UInt64

    /// A fault for the next `count` matching requests.
    public struct FailNext: Sendable, Equatable, Codable {
        /// The fault to inject.
        public var kind: FaultKind
        /// How many requests get it.
        public var count: Int

        /// Creates a fault for the next `count` requests.
        public init(kind: FaultKind, count: Int) {
            self.kind = kind
            self.count = count
        }
    }

    /// Creates fault settings; with no arguments, no faults at all.
    ///
    /// ```swift
    /// FaultSettings(retryAfterSeconds: 3, failNext: .init(kind: .rateLimited, count: 2))
    /// ```
    public init(
        errorRate: Double = 0,
        rateLimitRate: Double = 0,
        unavailableRate: Double = 0,
        retryAfterSeconds: Int = 1,
        latencyMilliseconds: Int = 0,
        dropRate: Double = 0,
        truncateRate: Double = 0,
        failNext: FailNext? = nil,
        pathPrefix: String? = nil,
        seed: UInt64 = 42
    ) {
        self.errorRate = errorRate
        self.rateLimitRate = rateLimitRate
        self.unavailableRate = unavailableRate
        self.retryAfterSeconds = retryAfterSeconds
        self.latencyMilliseconds = latencyMilliseconds
        self.dropRate = dropRate
        self.truncateRate = truncateRate
        self.failNext = failNext
        self.pathPrefix = pathPrefix
        self.seed = seed
    }

    enum CodingKeys: String, CodingKey {
        case errorRate = "error_rate"
        case rateLimitRate = "rate_limit_rate"
        case unavailableRate = "unavailable_rate"
        case retryAfterSeconds = "retry_after_seconds"
        case latencyMilliseconds = "latency_ms"
        case dropRate = "drop_rate"
        case truncateRate = "truncate_rate"
        case failNext = "fail_next"
        case pathPrefix = "path_prefix"
        case seed
    }

    /// Decodes with every field optional (absent means "no fault").
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errorRate: try c.decodeIfPresent(Double.self, forKey: .errorRate) ?? 0,
            rateLimitRate: try c.decodeIfPresent(Double.self, forKey: .rateLimitRate) ?? 0,
            unavailableRate: try c.decodeIfPresent(Double.self, forKey: .unavailableRate) ?? 0,
            retryAfterSeconds: try c.decodeIfPresent(Int.self, forKey: .retryAfterSeconds) ?? 1,
            latencyMilliseconds: try c.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? 0,
            dropRate: try c.decodeIfPresent(Double.self, forKey: .dropRate) ?? 0,
            truncateRate: try c.decodeIfPresent(Double.self, forKey: .truncateRate) ?? 0,
            failNext: try c.decodeIfPresent(FailNext.self, forKey: .failNext),
            pathPrefix: try c.decodeIfPresent(String.self, forKey: .pathPrefix),
            seed: try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 42
        )
    }
}
