import Foundation
import TeardownBase

/// libvips' version for image cache keys, known without loading libvips while its library file
/// is the one the version was last read from: a build that takes every image from the cache (a
/// sync of comments) then maps none of the hundred libraries libvips brings. The memo is one
/// line in the image cache; a libvips upgraded, or found elsewhere, is loaded and read again.
package enum VipsVersion {
    package static func current(memo path: String) -> String {
        let search = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? ""
        // No memo, or one that cannot be read, is read again from libvips.
        let fields = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\t", omittingEmptySubsequences: false)
        if fields.count == 4, fields[2] == search, let status = FileSystem.status(String(fields[1])),
           String(status.signature) == fields[0] {
            return String(fields[3])
        }
        let version = Vips.version
        guard let library = Vips.library, let status = FileSystem.status(library) else { return version }
        // Replaced whole, so a build reading it meanwhile sees the old memo or the new one; one
        // that cannot be written costs a load of libvips next time, nothing more.
        FileSystem.replaceFile(Data("\(status.signature)\t\(library)\t\(search)\t\(version)".utf8), at: path)
        return version
    }
}
