import Foundation
import Hummingbird

/// Behind a reverse proxy, what `ConnectionCap` does for direct visitors: a client the proxy
/// names may have only so many requests open at once. Every connection then comes from the
/// proxy, so counting connections would lock every visitor out once one client stalled
/// `limit` uploads; a client over its limit is answered 429 before its body is read.
struct ForwardedClientCap: RouterMiddleware {
    typealias Context = IntakeContext

    let counts: ConnectionCap.Counts
    /// The client a request is from, as the proxy names it.
    let client: @Sendable (Request, IntakeContext) -> String
    let onRefused: @Sendable (String) -> Void

    func handle(_ request: Request, context: IntakeContext,
                next: (Request, IntakeContext) async throws -> Response) async throws -> Response {
        let client = client(request, context)
        guard counts.admit(client) else {
            onRefused(client)
            return Response(status: .tooManyRequests, headers: [.contentType: "text/plain; charset=utf-8", .connection: "close"],
                            body: .init(byteBuffer: ByteBuffer(string: "too many requests at once from your address\n")))
        }
        defer { counts.release(client) }
        return try await next(request, context)
    }
}
