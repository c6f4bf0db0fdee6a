import Foundation
import SystemPackage

/// An error from a file operation in our words: the file it is about, and what went wrong as
/// the system says it ("No space left on device"), never Foundation's dump of an NSError with
/// its domain, code and user info (what a full disk printed).
package enum ErrorText {
    package static func describe(_ error: Error) -> (path: String?, reason: String) {
        if let failure = error as? FileSystem.Failure { return (failure.path, failure.reason) }
        if let errno = error as? Errno { return (nil, errno.description) }
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return (nil, "\(error)") }
        let path = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        let posix = ns.domain == NSPOSIXErrorDomain ? ns : (ns.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
            $0.domain == NSPOSIXErrorDomain ? $0 : nil
        }
        let full = ns.domain == NSCocoaErrorDomain && ns.code == CocoaError.fileWriteOutOfSpace.rawValue
        let reason = posix.map { Errno(rawValue: Int32($0.code)).description }
            ?? (full ? Errno.noSpace.description : ns.localizedDescription)
        return (path, reason)
    }

    /// `path: reason`, or the reason alone.
    package static func text(_ error: Error) -> String {
        let (path, reason) = describe(error)
        return path.map { "\($0): \(reason)" } ?? reason
    }

    /// What to do about a full device, said after the error.
    package static func noSpaceHint(also: String = "") -> String {
        " (the device is full: free some space and build again\(also))"
    }

    /// Whether the error is a full device: the place then says how to make room.
    package static func isNoSpace(_ error: Error) -> Bool {
        if let failure = error as? FileSystem.Failure { return failure.isNoSpace }
        if let errno = error as? Errno { return errno == .noSpace }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return ns.code == Int(ENOSPC) }
        if ns.domain == NSCocoaErrorDomain, ns.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        return (ns.userInfo[NSUnderlyingErrorKey] as? NSError).map(isNoSpace) ?? false
    }
}
