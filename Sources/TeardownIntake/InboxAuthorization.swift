import Foundation
import Hummingbird
import TeardownBase

/// Lets through only requests that carry the inbox's bearer token; the rest get 401 and a
/// challenge, before any route looks at the inbox.
struct InboxToken<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
              // Digests compared in constant time: timing tells nothing about the token, not
              // even its length.
              SHA256.same(SHA256.hash(data: Data(header.dropFirst("Bearer ".count).utf8)), SHA256.hash(data: Data(token.utf8))) else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"teardown inbox\""],
                            body: .init(byteBuffer: ByteBuffer(string: "a token is needed to read the inbox\n")))
        }
        return try await next(request, context)
    }
}
