import Dispatch

/// Maps over a collection on all cores, keeping the input order.
package enum ParallelMap {
    package static func map<Element, Result: Sendable>(
        _ elements: [Element], _ transform: (Element) -> Result
    ) -> [Result] {
        let buffer = UnsafeMutableBufferPointer<Result?>.allocate(capacity: elements.count)
        buffer.initialize(repeating: nil)
        defer { buffer.deinitialize().deallocate() }
        nonisolated(unsafe) let output = buffer
        withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let transform = transform
            nonisolated(unsafe) let elements = elements
            DispatchQueue.concurrentPerform(iterations: elements.count) { index in
                output[index] = transform(elements[index])
            }
        }
        return buffer.map { $0! }
    }

    /// Maps with at most `width` elements in hand at once, for work that runs programs which
    /// use several cores themselves.
    package static func map<Element, Result: Sendable>(
        _ elements: [Element], width: Int, _ transform: (Element) -> Result
    ) -> [Result] {
        let buffer = UnsafeMutableBufferPointer<Result?>.allocate(capacity: elements.count)
        buffer.initialize(repeating: nil)
        defer { buffer.deinitialize().deallocate() }
        nonisolated(unsafe) let output = buffer
        let next = Locked(0)
        withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let transform = transform
            nonisolated(unsafe) let elements = elements
            DispatchQueue.concurrentPerform(iterations: max(1, min(width, elements.count))) { _ in
                while case let index = next.withLock({ (next: inout Int) -> Int in next += 1; return next - 1 }),
                      index < elements.count {
                    output[index] = transform(elements[index])
                }
            }
        }
        return buffer.map { $0! }
    }
}
