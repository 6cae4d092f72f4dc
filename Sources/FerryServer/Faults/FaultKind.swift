/// One kind of injected fault.
public enum FaultKind: String, Sendable, Codable, CaseIterable {
    /// 500 with the error shape (`injected_fault`).
    case internalError = "internal_error"
    /// 429 with `Retry-After` (`rate_limited`).
    case rateLimited = "rate_limited"
    /// 503 with `Retry-After` (`unavailable`).
    case unavailable
    /// The request is handled, then the connection closes after half of the response body.
    case drop
    /// The request is handled, then the body stops short of its `Content-Length` and the connection closes.
    case truncate
}
