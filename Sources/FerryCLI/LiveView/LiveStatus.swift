import Hummingbird

/// An HTTP status of the live view's answers (named here, where `HTTPResponse` is
/// Hummingbird's alone and not also the kernel's transport type).
typealias LiveStatus = HTTPResponse.Status
