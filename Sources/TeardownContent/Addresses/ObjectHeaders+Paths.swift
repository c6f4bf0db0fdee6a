
extension ObjectHeaders {
    /// The cache header a published path is sent with: pages and the comments' downloads are
    /// revalidated, content-addressed files kept for good.
    package func cacheControl(of path: String) -> String {
        if Self.isContentAddressed(path) { return immutable }
        return Self.isPage(path) || path.hasPrefix(Routes.commentsDownloadFolder + "/") ? pages : assets
    }
}
