import Foundation

/// The API's description, served at /api/v1/openapi.json from the file kept beside the code.
enum OpenAPIDocument {
    static let json: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              // The document is a resource of this binary; if it is missing, the service answers without it.
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "{}" }
        return text
    }()
}
