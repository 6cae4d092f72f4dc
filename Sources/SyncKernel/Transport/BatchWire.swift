import Foundation

/// The wire format of a batch (docs/protocol.md, "Batch"): requests in, one answer each out.
enum BatchWire {
    /// Headers the batch request carries itself, or that make no sense per sub-request.
    static let outerHeaders: Set<String> = ["authorization", "user-agent", "accept", "content-type", "content-length"]

    /// One sub-request: its path below the remote, headers and JSON body.
    struct Item: Sendable {
        var method: String
        var path: String
        var headers: [(String, String)]
        /// The JSON body, as the plugin wrote it.
        var body: Data?
    }

    /// `request` as a sub-request of a batch on `base`, or nil when it cannot travel in one:
    /// another host, a body that is not JSON, no credentials to share.
    static func item(_ request: PreparedRequest, base: String) -> Item? {
        let root = base.trimmingSuffix("/")
        guard request.url.hasPrefix(root + "/"), request.header("Authorization") != nil else { return nil }
        var body: Data?
        if let data = request.body, !data.isEmpty {
            guard request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true,
                (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            else { return nil }
            body = data
        }
        return Item(
            method: request.method,
            path: String(request.url.dropFirst(root.count)),
            headers: request.headers.filter { !outerHeaders.contains($0.0.lowercased()) },
            body: body
        )
    }

    private struct Head: Encodable {
        var method: String
        var path: String
        var headers: [String: String]?
    }

    /// The body of the batch request; each sub-request's body is copied in as it is.
    static func encode(_ items: [Item]) throws -> Data {
        let encoder = JSONEncoder()
        var out = Data(#"{"requests":["#.utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let headers = Dictionary(item.headers, uniquingKeysWith: { _, last in last })
            var entry = try encoder.encode(
                Head(method: item.method, path: item.path, headers: headers.isEmpty ? nil : headers)
            )
            if let body = item.body {
                entry.removeLast()  // the closing brace
                entry.append(contentsOf: #","body":"#.utf8)
                entry.append(body)
                entry.append(UInt8(ascii: "}"))
            }
            out.append(entry)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// The answers of a `200` batch response, in the order of the requests, or nil when the
    /// body is not a batch answer for `count` requests.
    static func decode(_ body: Data, count: Int) -> [HTTPResponse]? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let answers = object["responses"] as? [Any], answers.count == count
        else { return nil }
        var responses: [HTTPResponse] = []
        for answer in answers {
            guard let answer = answer as? [String: Any], let status = answer["status"] as? Int,
                let response = response(status: status, answer)
            else { return nil }
            responses.append(response)
        }
        return responses
    }

    private static func response(status: Int, _ answer: [String: Any]) -> HTTPResponse? {
        var headers: [String: String] = [:]
        for (name, value) in answer["headers"] as? [String: Any] ?? [:] {
            if let value = value as? String { headers[name.lowercased()] = value }
        }
        var body = Data()
        if let encoded = answer["body_base64"] as? String {
            guard let bytes = Data(base64Encoded: encoded) else { return nil }
            body = bytes
        } else if let json = answer["body"], !(json is NSNull) {
            guard let bytes = try? JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
            else { return nil }
            body = bytes
            headers["content-type"] = headers["content-type"] ?? "application/json"
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }
}
