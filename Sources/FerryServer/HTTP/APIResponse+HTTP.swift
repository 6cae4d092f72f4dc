import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension APIResponse {
    /// The response Hummingbird writes: headers, `Content-Length` and the body (none for HEAD).
    func httpResponse(head: Bool) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let fieldName = HTTPField.Name(name) { fields[fieldName] = value }
        }
        if status != .noContent && status != .notModified, fields[.contentLength] == nil {
            fields[.contentLength] = String(body.count)
        }
        let bytes = head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        return Response(status: status, headers: fields, body: bytes)
    }

    /// The answer a response carries: status, headers but `Content-Length`, and the body bytes.
    init(_ response: Response) async throws {
        var headers: [String: String] = [:]
        for field in response.headers where field.name != .contentLength {
            headers[field.name.rawName] = field.value
        }
        self.init(
            status: response.status,
            headers: headers,
            body: Data(try await response.body.bytes().readableBytesView)
        )
    }
}

extension ResponseBody {
    /// Every byte this body writes.
    func bytes() async throws -> ByteBuffer {
        let collector = ByteCollector()
        try await write(collector)
        return collector.buffer
    }
}

/// A body writer that keeps what it is given.
private final class ByteCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        self.buffer.writeImmutableBuffer(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
