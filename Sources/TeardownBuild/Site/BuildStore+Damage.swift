import Foundation
import GRDB
import TeardownBase

extension BuildStore {
    /// The store is damaged: SQLite found a page it cannot read, its tables are not the shape
    /// this version makes, or a stored output path would leave the output folder. The build
    /// sets the store aside and starts over once from a new one.
    package struct Damaged: Error, Sendable, CustomStringConvertible {
        package let path: String
        package let reason: String

        package var description: String { "\(path): \(reason)" }
    }

    /// Whether `error` means the file is not a store this version can trust (as opposed to one
    /// another process holds, or a full disk, which are said as they are).
    static func isDamage(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode {
        // SQLITE_ERROR from our own statements: a table or column of another shape.
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT, .SQLITE_MISMATCH, .SQLITE_ERROR, .SQLITE_CONSTRAINT:
            return true
        default:
            return false
        }
    }

    /// Runs `body` in a read, with damage said as `Damaged`.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try queue.read(body) } catch { throw damage(error) }
    }

    /// Runs `body` in a write transaction, with damage said as `Damaged`.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try queue.write(body) } catch { throw damage(error) }
    }

    private func damage(_ error: Error) -> Error {
        if error is Damaged || !Self.isDamage(error) { return error }
        return Damaged(path: path, reason: (error as? DatabaseError)?.message ?? ErrorText.text(error))
    }

    /// An output path as stored: a plain relative path below the output, or the store is damaged
    /// (a copied store, or a shared cache, would otherwise make a build delete files elsewhere).
    /// Read byte by byte: a build checks every path of the published manifest it reads.
    func checked(_ path: String) throws -> String {
        var plain = !path.isEmpty
        var component = 0, dots = 0
        for byte in path.utf8 where plain {
            switch byte {
            case UInt8(ascii: "/"):
                plain = component > 0 && dots != component
                component = 0
                dots = 0
            case 0:
                plain = false
            default:
                component += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        // A component of dots only is "." or ".." (or more dots, which no output is named).
        guard plain, component > 0, dots != component else {
            throw Damaged(path: self.path, reason: "a stored output path is not a plain path below the output: \(path)")
        }
        return path
    }

    /// Puts the store at `path` aside (`<path>.damaged`, replacing an earlier one) for a look.
    package static func setAside(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileSystem.exists(path + suffix) {
            try FileSystem.rename(path + suffix, to: path + ".damaged" + suffix)
        }
    }
}
