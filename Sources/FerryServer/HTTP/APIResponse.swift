import Foundation
import HTTPTypes

/// One API response before it is written to the wire (or into a batch response).
struct APIResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: [String: String]
    var body: Data

    init(status: HTTPResponse.Status, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok, headers: [String: String] = [:]) -> APIResponse {
        var all = headers
        all["Content-Type"] = "application/json; charset=utf-8"
        return APIResponse(status: status, headers: all, body: value.encoded())
    }

    /// A JSON response for one versioned entity, with its `ETag`.
    static func entity(
        _ entity: JSON,
        status: HTTPResponse.Status = .ok,
        headers: [String: String] = [:]
    ) -> APIResponse {
        var all = headers
        if let version = entity["version"]?.intValue {
            all["ETag"] = "\"\(version)\""
        }
        return .json(entity, status: status, headers: all)
    }

    static let noContent = APIResponse(status: .noContent)

    /// The error shape for `error`.
    static func error(_ error: APIError) -> APIResponse {
        .json(error.body, status: error.status, headers: error.headers)
    }
}
