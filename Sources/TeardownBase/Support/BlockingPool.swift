import Dispatch

/// Work that holds a thread while it waits on the disk or decodes (an image check, fsync,
/// reading the site again) runs on threads of its own, not on Swift's cooperative pool. That
/// pool has a thread per core: on two cores, two photo checks stopped every other request,
/// `/health` included.
package enum BlockingPool {
    private static let queue = DispatchQueue(label: "teardown.blocking", attributes: .concurrent)

    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    package static func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await run { () -> Result<T, Failure> in
            do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
