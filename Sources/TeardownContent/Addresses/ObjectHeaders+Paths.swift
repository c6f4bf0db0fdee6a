
extension ObjectHeaders {
    /// The cache header a published path is sent with: content-addressed files are kept for
    /// good, pages and the comments' downloads get `pages`, everything else `assets`.
    package func cacheControl(of path: String) -> String {
        if Self.isContentAddressed(path) { return immutable }
        return Self.isPage(path) || path.hasPrefix(Routes.commentsDownloadFolder + "/") ? pages : assets
    }
}
