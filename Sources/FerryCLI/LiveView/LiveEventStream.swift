import Foundation
import Hummingbird
import SyncKernelCLI

/// `GET /events`: server-sent events (`text/event-stream`) that keep the page live. The
/// first message is a `snapshot` (a `LiveSnapshot`); then a `sync` message per kernel event
/// (a line of `ferry run --json`) and a new `snapshot` whenever something changed. The
/// stream ends when the runner stops.
enum LiveEventStream {
    static func response(_ feed: LiveFeed) async throws -> Response {
        let messages = feed.listen()
        let first = try JSONOutput.encode(try await feed.snapshot(), oneLine: true)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await writer.write(frame("snapshot", first))
                for await message in messages {
                    switch message {
                    case .event(let data): try await writer.write(frame("sync", data))
                    case .snapshot(let data): try await writer.write(frame("snapshot", data))
                    }
                }
                try await writer.finish(nil)
            }
        )
    }

    /// One message: its name, and its JSON on one `data:` line (the JSON has no newline).
    static func frame(_ name: String, _ data: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("event: \(name)\ndata: ")
        buffer.writeBytes(data)
        buffer.writeString("\n\n")
        return buffer
    }
}
