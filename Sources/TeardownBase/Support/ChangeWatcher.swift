import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Calls back when anything below the watched folders changes, with the paths that changed
/// (nil when they are not known: after the kernel's event queue overflowed, or while polling).
/// Uses inotify; when the kernel's watch limit is reached (a known way for other generators to
/// stop watching without a word), it says so and polls modification times instead.
public final class ChangeWatcher: @unchecked Sendable {
    public enum Mode: Equatable, Sendable { case inotify, polling(reason: String) }

    private let folders: [String]
    private let onChange: @Sendable (_ paths: [String]?) -> Void
    /// Read by the process the watcher reports to, set by the watcher's thread when it falls back to polling.
    public var mode: Mode { modeState.withLock { $0 } }
    private let modeState = Locked<Mode>(.inotify)
    private var descriptor: Int32 = -1
    /// Each watched folder by its watch: its parent's watch and its name (a root's: its path).
    /// Names, not paths: a name of up to 15 bytes is held in the String itself, where a path
    /// is an allocation of its own for every folder, kept as long as `sync --follow` stays up.
    private var watches: [Int32: (parent: Int32, name: String)] = [:]
    /// The folder each root lies in, watched for the root's own name: a root moved away and
    /// another put in its place (restored from a backup, an inbox rotated) is watched anew,
    /// where the watches below the old one would follow it away and see nothing more.
    private var rootParents: [Int32: [String]] = [:]
    /// The watch of each root that exists.
    private var rootWatches: [String: Int32] = [:]

    private static let limitReached = "the inotify watch limit is reached (fs.inotify.max_user_watches)"

    /// How often the fallback walks the folders.
    private let pollInterval: Double
    /// Files made or written to and not closed since, with the time of the last event of each
    /// (`isBeingWritten`). Held, with the watches, under `reading`: the events the kernel has
    /// queued are read and noted in one hold of it, so `settle` knows when all are noted.
    private var open: [String: Double] = [:]
    private let reading = NSCondition()
    /// Seconds without an event after which a file taken for open is taken for whole: a
    /// writer that stalls that long, or a file made in a way that sends no close, is not
    /// waited for forever.
    private let stallLimit: Double

    /// `forcePolling` is for tests of the fallback.
    public init(folders: [String], forcePolling: Bool = false, pollInterval: Double = 0.3, stallLimit: Double = 300,
                onChange: @escaping @Sendable (_ paths: [String]?) -> Void) {
        self.folders = folders
        self.onChange = onChange
        self.pollInterval = pollInterval
        self.stallLimit = stallLimit
        if forcePolling {
            modeState.withLock { $0 = .polling(reason: "polling was asked for") }
        } else {
            descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            if descriptor < 0 {
                modeState.withLock { $0 = .polling(reason: "inotify is unavailable: \(Errno(rawValue: errno))") }
            } else {
                for folder in folders where !addWatches(below: folder, parent: -1, name: folder) || !watchParent(of: folder) {
                    close(descriptor)
                    descriptor = -1
                    break
                }
            }
        }
        let thread = Thread { [self] in
            if case .inotify = mode { readEvents() } else { poll() }
        }
        thread.name = "teardown-watch"
        thread.start()
    }

    /// Whether the file at `path` was made or written to and has not been closed since, as
    /// inotify tells: an upload over FTP or scp, which writes a file in steps through one
    /// descriptor, is whole once it is closed. Asked after `settle`, it knows of every write
    /// made before. False while polling, which cannot tell.
    public func isBeingWritten(_ path: String) -> Bool {
        reading.lock()
        defer { reading.unlock() }
        return open[path].map { Self.now() - $0 < stallLimit } ?? false
    }

    /// Returns once the events the kernel queued before the call are noted (or after a
    /// second, should the reader be held up): a file listed before it is known to be open
    /// if it is. Without it a listing can read a file whose first write is still queued.
    public func settle() {
        guard descriptor >= 0 else { return }
        let give = Date(timeIntervalSinceNow: 1)
        reading.lock()
        defer { reading.unlock() }
        while case .inotify = mode, Self.hasEvents(descriptor), Date() < give {
            _ = reading.wait(until: min(give, Date(timeIntervalSinceNow: 0.05)))
        }
    }

    private static func hasEvents(_ descriptor: Int32, wait milliseconds: Int32 = 0) -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&ready, 1, milliseconds) > 0
    }

    private static func now() -> Double { ProcessInfo.processInfo.systemUptime }

    /// Watches `folder` (named `name` in the folder `parent` watches) and every folder below it.
    private func addWatches(below folder: String, parent: Int32, name: String) -> Bool {
        var pending = [(path: folder, parent: parent, name: name)]
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_ATTRIB)
        while let next = pending.popLast() {
            guard Self.isDirectory(next.path) else { continue }
            let watch = inotify_add_watch(descriptor, next.path, mask)
            if watch < 0 {
                if errno == ENOSPC || errno == ENOMEM {
                    modeState.withLock { $0 = .polling(reason: Self.limitReached) }
                    return false
                }
                continue
            }
            watches[watch] = (next.parent, next.name)
            if next.parent < 0 { rootWatches[next.path] = watch }
            for name in FileSystem.names(in: next.path) {
                pending.append((next.path + "/" + name, watch, name))
            }
        }
        return true
    }

    /// Watches the folder `root` lies in for entries coming and going under the root's name.
    /// Added to whatever watch that folder has already (it may be watched as part of a root).
    private func watchParent(of root: String) -> Bool {
        let parent = (root as NSString).deletingLastPathComponent
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ONLYDIR) | UInt32(IN_MASK_ADD)
        let watch = inotify_add_watch(descriptor, parent, mask)
        if watch < 0 {
            if errno == ENOSPC || errno == ENOMEM {
                modeState.withLock { $0 = .polling(reason: Self.limitReached) }
                return false
            }
            // A root whose folder cannot be watched is watched as it is, as before.
            return true
        }
        rootParents[watch, default: []].append(root)
        return true
    }

    /// A root's name came or went in its folder: the watches of the one that was there are
    /// dropped (their events would name paths that now lie elsewhere), and the one there now,
    /// if any, is watched. True when the root's name was the event's.
    private func rootEvent(_ mask: UInt32, watch: Int32, name: String?) -> Bool {
        guard let name, let roots = rootParents[watch] else { return false }
        guard let root = roots.first(where: { ($0 as NSString).lastPathComponent == name }) else { return false }
        if let old = rootWatches.removeValue(forKey: root) { dropWatches(below: old) }
        // At the watch limit the mode says so, and the reader goes on polling.
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { _ = addWatches(below: root, parent: -1, name: root) }
        return true
    }

    /// Stops watching the folder of `watch` and every folder below it.
    private func dropWatches(below watch: Int32) {
        var dropped: Set<Int32> = [watch]
        var grew = true
        while grew {
            grew = false
            for (child, entry) in watches where !dropped.contains(child) && dropped.contains(entry.parent) {
                dropped.insert(child)
                grew = true
            }
        }
        for dead in dropped {
            watches[dead] = nil
            inotify_rm_watch(descriptor, dead)
        }
    }

    /// The path of a watched folder, from its name and its parents'.
    private func path(of watch: Int32) -> String? {
        var names: [String] = [], current = watch
        while let (parent, name) = watches[current] {
            names.append(name)
            if parent < 0 { return names.reversed().joined(separator: "/") }
            // A watch the kernel reused for another folder cannot loop forever.
            guard names.count <= watches.count else { return nil }
            current = parent
        }
        return nil
    }

    private func readEvents() {
        let events = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { events.deallocate() }
        while true {
            // Woken by an event, or when the first file taken for open stalls.
            let stalls = reading.withLock { open.values.min() }.map { $0 + stallLimit - Self.now() }
            let wait = stalls.map { Int32(max(0, min(3_600, $0)) * 1000) + 1 } ?? -1
            _ = Self.hasEvents(descriptor, wait: wait)
            reading.lock()
            let batch = read(into: events)
            reading.broadcast()
            reading.unlock()
            switch batch {
            case .failed: return fallBack()
            case .paths(let paths): if paths?.isEmpty != true { onChange(paths) }
            }
        }
    }

    private enum Batch { case paths([String]?), failed }

    /// Reads and notes the events queued, with `reading` held. Paths of files that stalled
    /// open are reported too: what waited for their close looks again.
    private func read(into events: UnsafeMutableRawBufferPointer) -> Batch {
        let buffer = events.baseAddress!
        let count: Int
        do {
            count = try FileDescriptor(rawValue: descriptor).read(into: events)
        } catch Errno.wouldBlock {
            count = 0
        } catch {
            modeState.withLock { $0 = .polling(reason: "inotify failed: \(error)") }
            return .failed
        }
        var offset = 0
        var paths: [String]? = []
        let now = Self.now()
        for (path, last) in open where now - last >= stallLimit {
            open[path] = nil
            paths?.append(path)
        }
        while offset < count {
            let event = (buffer + offset).assumingMemoryBound(to: inotify_event.self).pointee
            let nameLength = Int(event.len)
            let name = nameLength > 0
                ? String(cString: (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self)) : nil
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                paths = nil
                // Closes were lost with the queue: a file is no longer taken for open forever.
                open.removeAll()
            } else if rootEvent(event.mask, watch: event.wd, name: name) {
                // What is under the root now is not known until it is looked at.
                paths = nil
                if case .polling = mode { return .failed }
            } else if let parent = path(of: event.wd) {
                let path = name.map { parent + "/" + $0 } ?? parent
                paths?.append(path)
                note(event.mask, of: path, at: now)
                if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, let name,
                   !addWatches(below: path, parent: event.wd, name: name) {
                    return .failed
                }
            }
            offset += MemoryLayout<inotify_event>.size + nameLength
        }
        // Events of the roots' folders under other names concern nothing watched.
        return .paths(paths)
    }

    /// Goes on by polling, from a walk: the change that met the watch limit, and any since
    /// the events read last, are found by looking at everything.
    private func fallBack() {
        onChange(nil)
        poll()
    }

    /// Keeps `open` up to date: a file made or written to is open, a close, a rename or a
    /// removal ends it. A file made by a link (it has another name) or a rename is never
    /// written to through its new name; one made by `open` is, and is open from its making,
    /// before its first write.
    private func note(_ mask: UInt32, of path: String, at now: Double) {
        guard mask & UInt32(IN_ISDIR) == 0 else { return }
        if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE) != 0 {
            open[path] = nil
        } else if mask & UInt32(IN_MODIFY) != 0 || open[path] != nil {
            open[path] = now
        } else if mask & UInt32(IN_CREATE) != 0 {
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 { open[path] = now }
        }
    }

    private func poll() {
        var last = snapshot()
        while true {
            usleep(UInt32(pollInterval * 1_000_000))
            let now = snapshot()
            if now != last {
                last = now
                onChange(nil)
            }
        }
    }

    /// Path to size and modification time of everything below the folders.
    private func snapshot() -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(
                at: URL(fileURLWithPath: folder), includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey])
            else { continue }
            for case let url as URL in enumerator {
                // A file gone between listing and reading is a change the next poll sees.
                let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
                result[url.path] = [Int((values?.contentModificationDate?.timeIntervalSince1970 ?? 0) * 1e6), values?.fileSize ?? -1]
            }
        }
        return result
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
