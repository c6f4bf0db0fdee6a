/// Values a one-shot command's process never frees: it exits right after, and the system takes
/// its memory back at once. Freeing a large build's values one by one (its plan, its
/// manifest, every image's outcome) was a tenth of a one-comment sync, as the compilers that
/// skip freeing at exit found before (clang's -disable-free). Never for a process that goes on.
package enum KeptUntilExit {
    private static let kept = Locked<[Any]>([])

    package static func keep(_ values: Any...) {
        kept.withLock { $0.append(contentsOf: values) }
    }
}
