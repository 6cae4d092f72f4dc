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
                JSONScanner.isJSON(data)
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

    /// The body of the batch request; each sub-request's body is copied in as it is.
    static func encode(_ items: [Item]) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(items.reduce(16) { $0 + 128 + ($1.body?.count ?? 0) })
        out.append(contentsOf: #"{"requests":["#.utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"method":"#.utf8)
            appendString(item.method, to: &out)
            out.append(contentsOf: #","path":"#.utf8)
            appendString(item.path, to: &out)
            let headers = Dictionary(item.headers, uniquingKeysWith: { _, last in last })
            if !headers.isEmpty {
                out.append(contentsOf: #","headers":{"#.utf8)
                for (number, (name, value)) in headers.sorted(by: { $0.key < $1.key }).enumerated() {
                    if number > 0 { out.append(UInt8(ascii: ",")) }
                    appendString(name, to: &out)
                    out.append(UInt8(ascii: ":"))
                    appendString(value, to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            if let body = item.body {
                out.append(contentsOf: #","body":"#.utf8)
                out.append(contentsOf: body)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return Data(out)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
        } else {
            let hex = Array("0123456789abcdef".utf8)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(contentsOf: [UInt8(ascii: "\\"), byte])
                case 0..<0x20:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default:
                    out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The answers of a `200` batch response, in the order of the requests, or nil when the
    /// body is not a batch answer for `count` requests.
    static func decode(_ body: Data, count: Int) -> [HTTPResponse]? {
        guard let answers = BatchAnswerReader.answers(in: body), answers.count == count else { return nil }
        var responses: [HTTPResponse] = []
        responses.reserveCapacity(count)
        for answer in answers {
            guard let status = answer.status else { return nil }
            var headers = answer.headers
            var bytes = Data()
            if let encoded = answer.base64 {
                guard let decoded = Data(base64Encoded: encoded) else { return nil }
                bytes = decoded
            } else if let json = answer.body {
                bytes = json
                headers["content-type"] = headers["content-type"] ?? "application/json"
            }
            responses.append(HTTPResponse(status: status, headers: headers, body: bytes))
        }
        return responses
    }
}
