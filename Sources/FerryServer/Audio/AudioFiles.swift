import Foundation

/// `GET/HEAD /v1/audio/files/{part_key}`: track bytes with Content-Length, ETag (the SHA-256),
/// `Accept-Ranges: bytes`, single-range requests (206) and 416 for unsatisfiable ranges.
enum AudioFiles {
    static func blobKey(_ partKey: String) -> String { "audio/\(partKey)" }

    static func serve(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let partKey = try Identifier.validated(
            request.parameter("part_key"),
            code: "invalid_part_key",
            name: "part_key"
        )
        let key = blobKey(partKey)
        guard let info = try await env.database.read({ db in try Blobs.info(db, key: key) }) else {
            throw APIError.notFound("file_not_found", "No audio file with part key '\(partKey)'.")
        }
        let etag = "\"\(info.sha256)\""
        var headers = ["ETag": etag, "Accept-Ranges": "bytes", "Content-Type": info.contentType]
        if request.header("If-None-Match") == etag {
            return APIResponse(status: .notModified, headers: headers)
        }
        var range = ByteRange(header: request.header("Range"), size: info.byteSize)
        if let ifRange = request.header("If-Range"), ifRange != etag { range = .whole }
        switch range {
        case .unsatisfiable:
            var error = APIError(
                .rangeNotSatisfiable,
                "range_not_satisfiable",
                "The requested range is outside the file (\(info.byteSize) bytes).",
                details: ["byte_size": .int(info.byteSize)]
            )
            error.headers = ["Content-Range": "bytes */\(info.byteSize)", "Accept-Ranges": "bytes"]
            throw error
        case .whole:
            let bytes =
                try await env.database.read { db in try Blobs.bytes(db, key: key, offset: 0, length: info.byteSize) }
                ?? Data()
            return APIResponse(status: .ok, headers: headers, body: bytes)
        case .partial(let lower, let upper):
            let bytes =
                try await env.database.read { db in
                    try Blobs.bytes(db, key: key, offset: lower, length: upper - lower + 1)
                } ?? Data()
            headers["Content-Range"] = "bytes \(lower)-\(upper)/\(info.byteSize)"
            return APIResponse(status: .partialContent, headers: headers, body: bytes)
        }
    }
}
