import Dispatch

/// Maps over a collection on all cores, keeping the input order.
enum ParallelMap {
    static func map<Element, Result: Sendable>(
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
}
