import Dispatch

/// A value made on another thread while the caller gets on with other work, then waited for
/// where it is needed.
package final class Prefetch<Value: Sendable>: @unchecked Sendable {
    private var made: Value?
    private let group = DispatchGroup()

    package init(_ make: @escaping @Sendable () -> Value) {
        group.enter()
        DispatchQueue.global().async {
            self.made = make()
            self.group.leave()
        }
    }

    /// The value, once made; the group's wait orders the write before this read.
    package var value: Value {
        group.wait()
        return made!
    }
}
