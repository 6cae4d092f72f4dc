import Foundation
import Hummingbird
import SyncKernel
import SyncKernelCLI

/// An error the live view answers with: an HTTP status and the error object of docs/json.md
/// (`{"error": {"code", "exit_code", "message"}}`).
struct LiveError: Error {
    let status: LiveStatus
    let report: ErrorReport

    init(_ status: LiveStatus, _ code: String, _ message: String) {
        let exit: ExitStatus = status == .notFound ? .notFound : .usage
        self.init(status: status, report: ErrorReport(code: code, message: message, status: exit))
    }

    private init(status: LiveStatus, report: ErrorReport) {
        self.status = status
        self.report = report
    }

    /// The answer to any error a handler threw: the kernel's errors keep their code and
    /// message, with the HTTP status that fits the code.
    init(_ error: any Error, request: Request) {
        if let error = error as? LiveError {
            self = error
        } else if let error = error as? HTTPError, error.status == .notFound {
            self.init(
                .notFound,
                "not_found",
                error.body
                    ?? "the live view has no \(request.method) \(request.uri.path); docs/json.md lists its endpoints"
            )
        } else if let error = error as? HTTPError {
            self.init(error.status, "usage", error.body ?? error.status.reasonPhrase.lowercased())
        } else if let error = error as? FerryError, let report = ErrorReport(error) {
            self.init(status: Self.status(for: error.code), report: report)
        } else {
            self.init(.internalServerError, "failure", "the live view could not answer: \(error)")
        }
    }

    static func status(for code: FerryError.Code) -> LiveStatus {
        switch code {
        case .notFound: .notFound
        case .usage: .badRequest
        case .conflict: .conflict
        case .needsLogin: .unauthorized
        case .requiresConnection, .remoteUnavailable, .storageUnavailable: .serviceUnavailable
        default: .internalServerError
        }
    }

    var response: Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        let body = (try? JSONOutput.encode(report, oneLine: true)) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns every error below it into a `LiveError` answer, unknown paths included.
struct LiveErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return LiveError(error, request: request).response
        }
    }
}
