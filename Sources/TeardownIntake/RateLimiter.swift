import Foundation

/// Allows each address `perMinute` submissions a minute, with bursts of the same size: a
/// token bucket per address, refilled continuously. Addresses live only in this process's
/// memory and are forgotten once their bucket is full again; nothing is written down.
final class RateLimiter: @unchecked Sendable {
    let perMinute: Int
    private var buckets: [String: (tokens: Double, updated: Double)] = [:]
    private let lock = NSLock()

    init(perMinute: Int) { self.perMinute = max(1, perMinute) }

    /// Takes one submission from the address's allowance; nil if allowed, otherwise how many
    /// seconds until the next one is.
    func take(_ address: String, now: Double = ProcessInfo.processInfo.systemUptime) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let capacity = Double(perMinute), rate = Double(perMinute) / 60
        if buckets.count > 10_000 { forgetFull(now: now, capacity: capacity, rate: rate) }
        var bucket = buckets[address] ?? (capacity, now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        guard bucket.tokens >= 1 else {
            buckets[address] = bucket
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
        bucket.tokens -= 1
        buckets[address] = bucket
        return nil
    }

    private func forgetFull(now: Double, capacity: Double, rate: Double) {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated) * rate < capacity }
    }
}
